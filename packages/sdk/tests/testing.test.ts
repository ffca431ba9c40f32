/** The test-only entry: typed resolvers answered by `respond` and `refuse`, as the SDK client reads them. */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type ApiError, createClient, type Job, NotFoundError, type Page, type SupportRequest } from '../src/index.js';
import { createHandlers, refuse, respond, type TypedResolvers } from '../src/testing/index.js';
import { ORIGIN, useMswServer } from './helpers/server.js';

const server = useMswServer();
const client = createClient({ origin: ORIGIN, apiKey: 'app-key', token: 'user-token' });
const use = (resolvers: TypedResolvers) => server.use(...createHandlers({ origin: ORIGIN, resolvers }));

const job: Job = {
  jobId: 'j1',
  name: 'Nightly OneDrive',
  type: 'backup',
  application: 'onedrive',
  sources: ['u1'],
  locationId: 'l1',
  recurrence: { kind: 'daily', hours: [2] },
  retention: { unit: 'months', value: 6 },
  status: 'finished',
  enabled: true,
  progress: 100,
  started: null,
  finished: null,
  nextRun: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const jobs: Page<Job> = { items: [job], total: 1, page: 1, pageSize: 25 };

describe('respond', () => {
  it('answers a JSON endpoint with its body, which the client returns', async () => {
    use({ 'apollo.jobs.list': respond('apollo.jobs.list', jobs) });
    expect(await client.apollo.jobs.list({ tenantId: 't1' })).toEqual(jobs);
  });

  it("answers with the endpoint's success status unless told another", async () => {
    const created: SupportRequest = { requestId: 'r1', reference: 'SR-1', createdAt: '2026-11-23T00:00:00.000Z' };
    use({ 'apollo.support.createRequest': respond('apollo.support.createRequest', created) });
    const url = `${ORIGIN}/apollo-beta/api/support-requests`;
    const answer = await fetch(url, { method: 'POST' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual(created);

    use({ 'apollo.support.createRequest': respond('apollo.support.createRequest', created, { status: 200 }) });
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
  });

  it('answers a text endpoint with its text', async () => {
    use({ 'apollo.auth.confirmEmail': respond('apollo.auth.confirmEmail', 'Thank you for confirming your email.') });
    expect(await client.apollo.auth.confirmEmail({ query: { userId: 'u1', code: 'c' } })).toBe(
      'Thank you for confirming your email.',
    );
  });

  it("answers a download with its bytes, of the endpoint's media type unless told another", async () => {
    use({
      'legacy.files.download': respond('legacy.files.download', new Blob(['%PDF-1.7']), {
        headers: { 'Content-Disposition': 'attachment; filename="contract.pdf"' },
      }),
    });
    const download = await client.legacy.files.download({
      fileName: 'contract.pdf',
      abbr: 'x',
      documentType: 'contracts',
    });
    expect(download.fileName).toBe('contract.pdf');
    expect(download.contentType).toBe('application/pdf');
    expect(await download.blob.text()).toBe('%PDF-1.7');

    use({
      'legacy.files.download': respond('legacy.files.download', new TextEncoder().encode('bytes'), {
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    });
    const bytes = await client.legacy.files.download({ fileName: 'x.pdf', abbr: 'x', documentType: 'others' });
    expect(bytes.contentType).toBe('application/octet-stream');
    expect(await bytes.blob.text()).toBe('bytes');
  });

  it('answers an empty endpoint with no body', async () => {
    use({ 'apollo.jobs.delete': respond('apollo.jobs.delete') });
    expect(await client.apollo.jobs.delete({ tenantId: 't1', jobId: 'j1' })).toBeUndefined();

    use({ 'apollo.jobs.delete': respond('apollo.jobs.delete', undefined, { status: 204 }) });
    const answer = await fetch(`${ORIGIN}/apollo-beta/api/t1/jobs/j1`, { method: 'DELETE' });
    expect(answer.status).toBe(204);
    expect(await answer.text()).toBe('');
  });

  it('answers every call, not only the first', async () => {
    use({ 'apollo.jobs.list': respond('apollo.jobs.list', jobs) });
    await client.apollo.jobs.list({ tenantId: 't1' });
    expect(await client.apollo.jobs.list({ tenantId: 't1' })).toEqual(jobs);
  });

  it('refuses an unknown endpoint id', () => {
    expect(() => respond('apollo.jobs.fly' as 'apollo.jobs.list', jobs)).toThrow(RangeError);
  });
});

describe('refuse', () => {
  it('answers an error any resolver may give, which the client maps', async () => {
    use({
      'apollo.jobs.get': ({ params }) =>
        params.jobId === 'j1' ? HttpResponse.json(job) : refuse(404, { title: 'Not Found', status: 404 }),
    });
    expect(await client.apollo.jobs.get({ tenantId: 't1', jobId: 'j1' })).toEqual(job);
    const error = await client.apollo.jobs.get({ tenantId: 't1', jobId: 'j2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe('Not Found');
  });

  it("carries the legacy API's message and code, a text, or nothing", async () => {
    use({ 'legacy.user.notifications': () => refuse(409, { message: 'Taken.', code: 'duplicate' }) });
    const legacy = (await client.legacy.user.notifications().catch((e: unknown) => e)) as ApiError;
    expect([legacy.status, legacy.message, legacy.code]).toEqual([409, 'Taken.', 'duplicate']);

    use({
      'legacy.user.notifications': () => refuse(503, 'Down for maintenance', { headers: { 'Retry-After': '0' } }),
    });
    const text = await fetch(`${ORIGIN}/api/admin/notifications`);
    expect([text.status, text.headers.get('retry-after'), await text.text()]).toEqual([
      503,
      '0',
      'Down for maintenance',
    ]);

    use({ 'legacy.user.notifications': () => refuse(500) });
    const empty = await fetch(`${ORIGIN}/api/admin/notifications`);
    expect([empty.status, await empty.text()]).toEqual([500, '']);
  });

  it('answers errors only', () => {
    expect(() => refuse(200, { message: 'ok' })).toThrow(RangeError);
    expect(() => refuse(302)).toThrow(RangeError);
  });
});

describe('createHandlers', () => {
  it('answers endpoints without a resolver 501', async () => {
    use({});
    const error = (await client.apollo.tenants.list().catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(501);
    expect(error.message).toBe('No mock for apollo.tenants.list');
  });
});
