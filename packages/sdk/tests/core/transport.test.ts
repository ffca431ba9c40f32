import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createClient,
  createTransport,
  DEFAULT_TIMEOUT_MS,
  fileNameFromDisposition,
  NetworkError,
  redactUrl,
  TimeoutError,
} from '../../src/index.js';
import { ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();

function capture(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  url: string,
  response: () => Response = () => HttpResponse.json({ ok: true }),
) {
  const seen: Request[] = [];
  server.use(
    http[method](url, ({ request }) => {
      seen.push(request.clone());
      return response();
    }),
  );
  return seen;
}

describe('base URLs', () => {
  it('sends apollo calls to /apollo-beta in production and legacy calls to /api', async () => {
    const apollo = capture('get', `${ORIGIN}/apollo-beta/api/Tenants`, () => HttpResponse.json([]));
    const legacy = capture('get', `${ORIGIN}/api/clients`, () => HttpResponse.json([]));
    const client = createClient({ origin: ORIGIN, token: 't' });
    await client.apollo.tenants.list();
    await client.legacy.workers.clients();
    expect(apollo).toHaveLength(1);
    expect(legacy).toHaveLength(1);
  });

  it('sends apollo calls to /apollo in staging', async () => {
    const seen = capture('get', `${ORIGIN}/apollo/api/Tenants`, () => HttpResponse.json([]));
    await createClient({ origin: `${ORIGIN}/`, environment: 'staging' }).apollo.tenants.list();
    expect(seen).toHaveLength(1);
  });

  it('lets explicit base URLs override', async () => {
    const seen = capture('get', 'http://other.test/x/api/Tenants', () => HttpResponse.json([]));
    const legacy = capture('get', 'http://legacy.test/v1/clients', () => HttpResponse.json([]));
    const client = createClient({ apolloBaseUrl: 'http://other.test/x/', legacyBaseUrl: 'http://legacy.test/v1' });
    await client.apollo.tenants.list();
    await client.legacy.workers.clients();
    expect(seen).toHaveLength(1);
    expect(legacy).toHaveLength(1);
  });

  it('needs an origin outside a browser', () => {
    expect(() => createClient()).toThrow(/origin/);
  });
});

describe('headers and auth modes', () => {
  it('sends JSON, no-cache and nosniff headers on every call', async () => {
    const seen = capture('get', `${ORIGIN}/api/client`);
    await createClient({ origin: ORIGIN, token: 'tok' }).legacy.workers.client();
    const headers = seen[0]?.headers;
    expect(headers?.get('content-type')).toBe('application/json');
    expect(headers?.get('accept')).toBe('application/json');
    expect(headers?.get('cache-control')).toBe('no-cache');
    expect(headers?.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the API key on apollo calls, with the bearer token when one is known', async () => {
    const seen = capture('get', `${ORIGIN}/apollo-beta/manage/info`, () =>
      HttpResponse.json({ email: 'a@b.c', isEmailConfirmed: true }),
    );
    const client = createClient({ origin: ORIGIN, apiKey: 'app-key' });
    await client.apollo.auth.info();
    expect(seen[0]?.headers.get('x-api-key')).toBe('app-key');
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    client.setToken('user-token');
    await client.apollo.auth.info();
    expect(seen[1]?.headers.get('authorization')).toBe('Bearer user-token');
  });

  it('uses a configured API key header name', async () => {
    const seen = capture('get', `${ORIGIN}/apollo-beta/api/Tenants`, () => HttpResponse.json([]));
    await createClient({ origin: ORIGIN, apiKey: 'k', apiKeyHeader: 'X-App-Key' }).apollo.tenants.list();
    expect(seen[0]?.headers.get('x-app-key')).toBe('k');
    expect(seen[0]?.headers.get('x-api-key')).toBeNull();
  });

  it("sends the stored user's token as it is on legacy calls, and no API key", async () => {
    const seen = capture('get', `${ORIGIN}/api/client`);
    let stored = 'first';
    const client = createClient({ origin: ORIGIN, apiKey: 'k', token: () => stored });
    await client.legacy.workers.client();
    stored = 'second';
    await client.legacy.workers.client();
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['first', 'second']);
    expect(seen[0]?.headers.get('x-api-key')).toBeNull();
  });

  it('sends no credentials on public legacy calls', async () => {
    const seen = capture('post', `${ORIGIN}/api/auth/signin`);
    await createClient({ origin: ORIGIN, apiKey: 'k', token: 'old' }).legacy.auth.signin({
      body: { email: 'a@b.c', password: 'x' },
    });
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    expect(await seen[0]?.json()).toEqual({ email: 'a@b.c', password: 'x' });
  });
});

describe('failures', () => {
  it('rejects with ApiError carrying status, body, method, redacted URL and the toast flag', async () => {
    server.use(
      http.post(`${ORIGIN}/api/auth/reset-password/:token`, () =>
        HttpResponse.json({ message: 'Failed to reset password' }, { status: 400 }),
      ),
    );
    const onError = vi.fn();
    const client = createClient({ origin: ORIGIN, onError });
    const error = await client.legacy.auth
      .resetPassword(
        { token: 'secret-reset-token', body: { password: 'Aa1!aaaa', confirmPassword: 'Aa1!aaaa' } },
        { disableToast: true },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.body).toEqual({ message: 'Failed to reset password' });
    expect(apiError.message).toBe('Failed to reset password');
    expect(apiError.method).toBe('POST');
    expect(apiError.url).toBe(`${ORIGIN}/api/auth/reset-password/[REDACTED]`);
    expect(apiError.url).not.toContain('secret-reset-token');
    expect(apiError.disableToast).toBe(true);
    expect(apiError.messageKey).toBe('badRequest');
    expect(onError).toHaveBeenCalledWith(apiError);
  });

  // Section 8: the message is the answer's message, else its title; issue 45 moved `detail` out of
  // the message (it gave "Failed" here) onto `error.detail`.
  it("reads ProblemDetails' title as the message, keeps the detail and the whole body", async () => {
    server.use(
      http.post(`${ORIGIN}/apollo-beta/login`, () =>
        HttpResponse.json(
          {
            type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
            title: 'Unauthorized',
            status: 401,
            detail: 'Failed',
          },
          { status: 401, headers: { 'Content-Type': 'application/problem+json' } },
        ),
      ),
    );
    const error = (await createClient({ origin: ORIGIN })
      .apollo.auth.login({ body: { email: 'a@b.c', password: 'x' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Unauthorized');
    expect(error.detail).toBe('Failed');
    // ASP.NET's word for a wrong password or code stands for the sign-in refusal's code.
    expect(error.code).toBe('invalidCredentials');
    expect(error.messageKey).toBe('invalidCredentials');
    expect((error.body as { title: string }).title).toBe('Unauthorized');
  });

  it('calls onUnauthorized for a 401 on an apollo call', async () => {
    server.use(http.get(`${ORIGIN}/apollo-beta/api/Tenants`, () => new HttpResponse(null, { status: 401 })));
    const onUnauthorized = vi.fn();
    await expect(createClient({ origin: ORIGIN, onUnauthorized }).apollo.tenants.list()).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized.mock.calls[0]?.[0]).toMatchObject({ status: 401, messageKey: 'unauthorized' });
  });

  it('does not call onUnauthorized for /login or for legacy calls', async () => {
    server.use(
      http.post(`${ORIGIN}/apollo-beta/login`, () => HttpResponse.json({ title: 'Unauthorized' }, { status: 401 })),
      http.get(`${ORIGIN}/api/client`, () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })),
    );
    const onUnauthorized = vi.fn();
    const client = createClient({ origin: ORIGIN, onUnauthorized });
    await expect(client.apollo.auth.login({ body: { email: 'a@b.c', password: 'x' } })).rejects.toBeInstanceOf(
      ApiError,
    );
    await expect(client.legacy.workers.client()).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('names the endpoint and the API on every error of a catalogue call, and nothing on a generic call', async () => {
    server.use(
      http.get(`${ORIGIN}/apollo-beta/api/Tenants`, () => HttpResponse.json({ title: 'Gone' }, { status: 404 })),
      http.get(`${ORIGIN}/api/client`, () => HttpResponse.error()),
    );
    const client = createClient({ origin: ORIGIN, maxRetries: 0 });
    expect(await client.apollo.tenants.list().catch((e: unknown) => e)).toMatchObject({
      endpoint: 'apollo.tenants.list',
      api: 'apollo',
      status: 404,
    });
    const network = await client.legacy.workers.client().catch((e: unknown) => e);
    expect(network).toBeInstanceOf(NetworkError);
    expect(network).toMatchObject({ endpoint: 'legacy.workers.client', api: 'legacy' });
    expect(await client.get('/api/Tenants').catch((e: unknown) => e)).toMatchObject({
      endpoint: undefined,
      api: 'apollo',
    });
  });

  it('rejects with TimeoutError after the timeout', async () => {
    server.use(
      http.get(`${ORIGIN}/api/client`, async () => {
        await delay(2000);
        return HttpResponse.json({});
      }),
    );
    const client = createClient({ origin: ORIGIN, timeoutMs: 50 });
    const error = await client.legacy.workers.client().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('Request timeout');
    expect((error as TimeoutError).messageKey).toBe('requestTimeout');
    const perRequest = await client.legacy.workers.client(undefined, { timeoutMs: 20 }).catch((e: unknown) => e);
    expect((perRequest as TimeoutError).timeoutMs).toBe(20);
  });

  it('defaults the timeout to 500000 ms', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(500_000);
  });

  it('rejects with NetworkError when no answer comes', async () => {
    server.use(http.get(`${ORIGIN}/api/client`, () => HttpResponse.error()));
    const error = await createClient({ origin: ORIGIN })
      .legacy.workers.client()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).messageKey).toBe('networkError');
  });

  it("rejects with the caller's abort reason when the caller aborts", async () => {
    server.use(
      http.get(`${ORIGIN}/api/client`, async () => {
        await delay(2000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const onError = vi.fn();
    const pending = createClient({ origin: ORIGIN, onError }).legacy.workers.client(undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    const error = await pending.catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('AbortError');
    expect(onError).not.toHaveBeenCalled();
    const already = AbortSignal.abort(new Error('gone'));
    await expect(
      createClient({ origin: ORIGIN }).legacy.workers.client(undefined, { signal: already }),
    ).rejects.toThrow('gone');
  });
});

describe('downloads and uploads', () => {
  it('reads the file name from Content-Disposition', async () => {
    server.use(
      http.get(
        `${ORIGIN}/api/files/download/:fileName/:abbr/:documentType`,
        ({ params }) =>
          new HttpResponse(new Blob(['%PDF-1.7']), {
            headers: {
              'Content-Type': 'application/pdf',
              'Content-Disposition': `attachment; filename="${String(params.fileName)}"; filename*=UTF-8''Vertrag%20%C3%BCber%20Daten.pdf`,
            },
          }),
      ),
    );
    const result = await createClient({ origin: ORIGIN, token: 't' }).legacy.files.download({
      fileName: 'contract.pdf',
      abbr: 'contoso',
      documentType: 'contracts',
    });
    expect(result.fileName).toBe('Vertrag über Daten.pdf');
    expect(result.contentType).toBe('application/pdf');
    expect(await result.blob.text()).toBe('%PDF-1.7');
  });

  it('parses the error body of a failed download as JSON', async () => {
    server.use(
      http.get(`${ORIGIN}/api/archive/downloadCSV/:workerIp/:indexIp`, () =>
        HttpResponse.json({ message: 'No folder found for this worker' }, { status: 404 }),
      ),
    );
    const error = (await createClient({ origin: ORIGIN })
      .legacy.mailboxes.downloadCsv({ workerIp: '10.0.0.5', indexIp: '10.0.0.6' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toEqual({ message: 'No folder found for this worker' });
    expect(error.message).toBe('No folder found for this worker');
  });

  it('uploads multipart form data without a JSON content type', async () => {
    let received: { type: string | null; file?: File; fields: Record<string, string> } | undefined;
    server.use(
      http.post(`${ORIGIN}/api/files/upload-file`, async ({ request }) => {
        const form = await request.formData();
        const file = form.get('file');
        received = {
          type: request.headers.get('content-type'),
          ...(file instanceof File ? { file } : {}),
          fields: { abbr: String(form.get('abbr')), documentType: String(form.get('documentType')) },
        };
        return HttpResponse.json(
          {
            fileName: 'a.pdf',
            documentType: 'contracts',
            sizeBytes: 8,
            contentType: 'application/pdf',
            uploaded: '2026-11-01T00:00:00Z',
            uploadedBy: null,
          },
          { status: 201 },
        );
      }),
    );
    const file = new File(['%PDF-1.7'], 'a.pdf', { type: 'application/pdf' });
    const entry = await createClient({ origin: ORIGIN, token: 't' }).legacy.files.upload({
      body: { file, abbr: 'contoso', documentType: 'contracts' },
    });
    expect(entry.fileName).toBe('a.pdf');
    expect(received?.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(received?.file?.name).toBe('a.pdf');
    expect(await received?.file?.text()).toBe('%PDF-1.7');
    expect(received?.fields).toEqual({ abbr: 'contoso', documentType: 'contracts' });
  });

  it('rejects a failed upload with the parsed error body', async () => {
    server.use(
      http.post(`${ORIGIN}/api/files/upload-file`, () =>
        HttpResponse.json({ message: 'An uploaded file must be a PDF of at most 3 MB.' }, { status: 413 }),
      ),
    );
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const error = (await createTransport({ origin: ORIGIN })
      .upload('/files/upload-file', form, { legacy: true })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(413);
    expect(error.body).toEqual({ message: 'An uploaded file must be a PDF of at most 3 MB.' });
  });
});

describe('generic helpers', () => {
  it('support get, post, put, patch and delete on both APIs', async () => {
    const seen: string[] = [];
    server.use(
      http.all(`${ORIGIN}/*`, async ({ request }) => {
        const body = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
        seen.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} ${body}`);
        return HttpResponse.json({ ok: request.method });
      }),
    );
    const t = createTransport({ origin: ORIGIN });
    expect(await t.get('/x', { query: { a: 1, b: [2, 3], c: undefined } })).toEqual({ ok: 'GET' });
    await t.post('/x', { n: 1 }, { legacy: true });
    await t.put('/x', { n: 2 });
    await t.patch('/x', { n: 3 }, { legacy: true });
    await t.delete('/x');
    expect(seen).toEqual([
      'GET /apollo-beta/x?a=1&b=2&b=3 ',
      'POST /api/x {"n":1}',
      'PUT /apollo-beta/x {"n":2}',
      'PATCH /api/x {"n":3}',
      'DELETE /apollo-beta/x ',
    ]);
  });
});

describe('helpers', () => {
  it('parse Content-Disposition forms', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(fileNameFromDisposition('attachment; filename=plain.xlsx')).toBe('plain.xlsx');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E2%82%AC.txt")).toBe('€.txt');
    expect(fileNameFromDisposition('inline')).toBeUndefined();
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });

  it('redact secret query values', () => {
    expect(redactUrl('http://x/a?userId=1&code=abc&resetCode=z&page=2')).toBe(
      'http://x/a?userId=1&code=[REDACTED]&resetCode=[REDACTED]&page=2',
    );
  });
});
