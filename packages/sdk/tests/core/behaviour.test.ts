import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  errorMessage,
  errorTexts,
  InternalServerError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  PortalError,
  RateLimitError,
  TimeoutError,
} from '../../src/index.js';
import { ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const TENANTS = `${ORIGIN}/apollo-beta/api/Tenants`;

/** Answers with `statuses` in turn (the last one for every later request) and counts the requests. */
function sequence(method: 'get' | 'post' | 'delete', url: string, answers: (() => Response)[]) {
  const seen = { count: 0 };
  server.use(
    http[method](url, () => {
      const answer = answers[Math.min(seen.count, answers.length - 1)];
      seen.count += 1;
      return answer?.() ?? HttpResponse.json([]);
    }),
  );
  return seen;
}
const problem =
  (status: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(
      { title: 'Title', status, ...extra },
      { status, headers: { 'Content-Type': 'application/problem+json', 'request-id': `rid-${status}`, ...headers } },
    );

describe('errors', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
  ] as const)('rejects a %i with its status class, an ApiError and a PortalError', async (status, Class) => {
    sequence('get', TENANTS, [problem(status, { detail: `detail ${status}` }, { 'Retry-After': '7' })]);
    const error = await createClient({ origin: ORIGIN, maxRetries: 0 })
      .apollo.tenants.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(PortalError);
    expect(error).toMatchObject({
      status,
      message: 'Title',
      detail: `detail ${status}`,
      requestId: `rid-${status}`,
      name: Class.name,
    });
    if (error instanceof RateLimitError) expect(error.retryAfter).toBe(7);
  });

  it('keeps ApiError itself for other statuses, and NetworkError and TimeoutError are PortalErrors', async () => {
    sequence('get', TENANTS, [problem(418)]);
    const teapot = await createClient({ origin: ORIGIN })
      .apollo.tenants.list()
      .catch((e: unknown) => e);
    expect(teapot).toBeInstanceOf(ApiError);
    expect((teapot as ApiError).name).toBe('ApiError');
    expect(Object.getPrototypeOf(NetworkError.prototype)).toBe(PortalError.prototype);
    expect(Object.getPrototypeOf(TimeoutError.prototype)).toBe(PortalError.prototype);
  });

  // Section 8: "The message text comes from the response's message, else its title, else the error's
  // own message." Issue 45 changed this test: the detail came before the title.
  it("takes the answer's message, else its title, else its own; the detail stays beside", async () => {
    const client = createClient({ origin: ORIGIN, maxRetries: 0 });
    sequence('get', TENANTS, [problem(404, { detail: 'Tenant not found' })]);
    expect((await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError).toMatchObject({
      message: 'Title',
      detail: 'Tenant not found',
      messageKey: 'notFound',
    });
    sequence('get', TENANTS, [problem(403, { detail: 'd', message: 'The message' })]);
    expect((await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError).toMatchObject({
      message: 'The message',
      detail: 'd',
    });
    sequence('get', TENANTS, [problem(404)]);
    expect((await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError).toMatchObject({
      message: 'Title',
      detail: undefined,
    });
    // A detail alone is not the message: the error's own text is.
    sequence('get', TENANTS, [
      () =>
        HttpResponse.json(
          { status: 409, detail: 'Only a detail' },
          { status: 409, headers: { 'Content-Type': 'application/problem+json' } },
        ),
    ]);
    expect((await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError).toMatchObject({
      message: 'Request failed with status code 409',
      detail: 'Only a detail',
    });
    sequence('get', TENANTS, [() => new HttpResponse(null, { status: 404 })]);
    expect(((await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError).message).toBe(
      'Request failed with status code 404',
    );
  });

  it("maps by the machine-readable code before the text: the web's message does not depend on wording", async () => {
    sequence('get', TENANTS, [problem(403, { message: 'Reworded by a later server.', code: 'trialNoDelete' })]);
    const error = (await createClient({ origin: ORIGIN })
      .apollo.tenants.list()
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('trialNoDelete');
    expect(error.messageKey).toBe('trialNoDelete');
    expect(errorMessage({ code: 'invalidCredentials', status: 401 }, 'de').message).toBe('Ungültige Anmeldedaten');
    // Without a code, the fixed texts still map (servers that predate codes).
    expect(errorMessage({ message: errorTexts.trialBackupJobs('onedrive'), status: 403 }).key).toBe('trialBackupJobs');
    expect(errorMessage({ message: errorTexts.trialRestores('teams'), status: 403 }).key).toBe('trialRestores');
  });
});

describe('retries', () => {
  it('retries a GET after 429 and 503 as Retry-After says, then answers', async () => {
    const seen = sequence('get', TENANTS, [
      problem(429, {}, { 'Retry-After': '0' }),
      problem(503, {}, { 'Retry-After': '0' }),
      () => HttpResponse.json([]),
    ]);
    await expect(createClient({ origin: ORIGIN }).apollo.tenants.list()).resolves.toEqual([]);
    expect(seen.count).toBe(3);
  });

  it('gives up after maxRetries (default 2) with the last error', async () => {
    const seen = sequence('get', TENANTS, [problem(503, {}, { 'Retry-After': '0' })]);
    await expect(createClient({ origin: ORIGIN }).apollo.tenants.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.count).toBe(3);
    const once = sequence('get', TENANTS, [problem(503, {}, { 'Retry-After': '0' })]);
    await expect(createClient({ origin: ORIGIN, maxRetries: 0 }).apollo.tenants.list()).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(once.count).toBe(1);
    const perCall = sequence('get', TENANTS, [problem(503, {}, { 'Retry-After': '0' })]);
    await expect(createClient({ origin: ORIGIN }).apollo.tenants.list(undefined, { maxRetries: 1 })).rejects.toThrow();
    expect(perCall.count).toBe(2);
  });

  it('retries network errors of idempotent calls', async () => {
    const seen = sequence('get', TENANTS, [() => HttpResponse.error(), () => HttpResponse.json([])]);
    await expect(createClient({ origin: ORIGIN }).apollo.tenants.list()).resolves.toEqual([]);
    expect(seen.count).toBe(2);
  });

  it('never retries a POST that changes something, and retries a POST that only reads', async () => {
    const create = sequence('post', TENANTS, [problem(503, {}, { 'Retry-After': '0' })]);
    await expect(
      createClient({ origin: ORIGIN }).apollo.tenants.create({
        body: { tenantId: '00000000-0000-4000-8000-000000000001', tenantName: 'x', clientId: 'c', clientSecret: 's' },
      } as never),
    ).rejects.toBeInstanceOf(ApiError);
    expect(create.count).toBe(1);
    const search = sequence('post', `${ORIGIN}/apollo-beta/api/t1/ediscovery/search`, [
      problem(429, {}, { 'Retry-After': '0' }),
      () => HttpResponse.json({ items: [], total: 0 }),
    ]);
    await createClient({ origin: ORIGIN })
      .apollo.ediscovery.search({ tenantId: 't1', body: { query: 'x' } } as never)
      .catch(() => undefined);
    expect(search.count).toBe(2);
  });

  it('does not retry 400, 401, 404 or 500: they would answer the same', async () => {
    for (const status of [400, 401, 404, 500]) {
      const seen = sequence('get', TENANTS, [problem(status)]);
      await createClient({ origin: ORIGIN })
        .apollo.tenants.list()
        .catch(() => undefined);
      expect(seen.count).toBe(1);
    }
  });

  it('stops waiting when the caller aborts during a back-off', async () => {
    const seen = sequence('get', TENANTS, [problem(503, {}, { 'Retry-After': '30' })]);
    const controller = new AbortController();
    const pending = createClient({ origin: ORIGIN }).apollo.tenants.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('enough')), 50);
    const started = Date.now();
    await expect(pending).rejects.toThrow('enough');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(seen.count).toBe(1);
  });
});

describe('argument checks', () => {
  const client = createClient({ origin: ORIGIN });

  it('refuses a body field given at the top level, naming it and where it belongs', async () => {
    await expect(client.apollo.jobs.start({ tenantId: 't1', jobId: 'j1', name: 'x' } as never)).rejects.toThrow(
      TypeError,
    );
    await expect(client.apollo.tenants.create({ tenantName: 'x', body: {} } as never)).rejects.toThrow(
      /unknown argument `tenantName`; it belongs in `body`/,
    );
  });

  it('refuses a query parameter at the top level and request options as the first argument', async () => {
    const signal = new AbortController().signal;
    await expect(client.apollo.tenants.list({ signal } as never)).rejects.toThrow(
      /unknown argument `signal`; request options go in the second argument/,
    );
    await expect(client.apollo.jobs.list({ tenantId: 't1', page: 2 } as never)).rejects.toThrow(
      /apollo\.jobs\.list \(GET \/api\/\{tenantId\}\/jobs\): unknown argument `page`; it belongs in `query`/,
    );
    await expect(client.apollo.tenants.list({ tenant: 'x' } as never)).rejects.toThrow(
      /unknown argument `tenant`; it takes no arguments/,
    );
  });

  it('still takes path parameters, query and body', async () => {
    const seen = sequence('get', TENANTS, [() => HttpResponse.json([])]);
    await expect(client.apollo.tenants.list()).resolves.toEqual([]);
    await expect(client.apollo.tenants.list({})).resolves.toEqual([]);
    expect(seen.count).toBe(2);
  });
});
