import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { isPaged } from '../../src/core/call.js';
import { createClient, endpoints } from '../../src/index.js';
import { ORIGIN, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const TOTAL = 7;

/** A job list of seven rows, paged as the server pages: `page`, `pageSize` (default 25), `total`. */
function jobs() {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get(`${ORIGIN}/apollo-beta/api/t1/jobs`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      seen.push(query);
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? 25);
      const rows = Array.from({ length: TOTAL }, (_, i) => ({ jobId: `j${i + 1}` })).slice(
        (page - 1) * pageSize,
        page * pageSize,
      );
      return HttpResponse.json({ items: rows, total: TOTAL, page, pageSize });
    }),
  );
  return seen;
}

describe('paged lists', () => {
  const client = createClient({ origin: ORIGIN, token: 't' });

  it('iterate over every item, one page at a time, keeping the query', async () => {
    const seen = jobs();
    const ids: string[] = [];
    for await (const job of client.apollo.jobs.list.items({ tenantId: 't1', query: { pageSize: 3, search: 'x' } })) {
      ids.push(job.jobId);
    }
    expect(ids).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6', 'j7']);
    expect(seen.map((q) => [q.get('page'), q.get('pageSize'), q.get('search')])).toEqual([
      ['1', '3', 'x'],
      ['2', '3', 'x'],
      ['3', '3', 'x'],
    ]);
  });

  it('iterate over pages from the given page', async () => {
    jobs();
    const sizes: number[] = [];
    for await (const page of client.apollo.jobs.list.pages({ tenantId: 't1', query: { page: 2, pageSize: 3 } })) {
      sizes.push(page.items.length);
    }
    expect(sizes).toEqual([3, 1]);
  });

  it('fetch the next page only when the loop asks for it', async () => {
    const seen = jobs();
    for await (const job of client.apollo.jobs.list.items({ tenantId: 't1', query: { pageSize: 2 } })) {
      expect(job.jobId).toBe('j1');
      break;
    }
    expect(seen).toHaveLength(1);
  });

  it('end on an empty page even when the total says more', async () => {
    server.use(
      http.get(`${ORIGIN}/apollo-beta/api/t1/jobs`, () =>
        HttpResponse.json({ items: [], total: 100, page: 1, pageSize: 25 }),
      ),
    );
    const all = [];
    for await (const job of client.apollo.jobs.list.items({ tenantId: 't1' })) all.push(job);
    expect(all).toEqual([]);
  });

  it('are offered by every endpoint that answers a page, and by no other', () => {
    const paged = endpoints.filter(isPaged).map((e) => e.id);
    expect(paged.length).toBeGreaterThanOrEqual(10);
    const bound = createClient({ origin: ORIGIN }) as unknown as Record<
      string,
      Record<string, Record<string, { items?: unknown; pages?: unknown }>>
    >;
    for (const endpoint of endpoints) {
      const [api, resource, key] = endpoint.id.split('.') as [string, string, string];
      const method = bound[api]?.[resource]?.[key];
      expect(method, endpoint.id).toBeTypeOf('function');
      expect(typeof method?.items === 'function' && typeof method.pages === 'function', endpoint.id).toBe(
        paged.includes(endpoint.id),
      );
    }
  });
});
