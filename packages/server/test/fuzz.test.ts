/**
 * A catalogue-wide fuzz: every path parameter, query parameter and body property of every endpoint
 * gets each value of a fixed hostile list, one at a time, the rest of the request valid. No answer may
 * be a 5xx, and a refused request (4xx) must leave the database as it was: every table but the audit
 * log carries a row trigger that counts changes (a failed sign-in's attempt counter excepted, an
 * account's or an unknown address's, which the lockout rule requires).
 */

import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type AnyEndpoint, endpoints, type JsonSchema } from '@compliance-portal/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, sessionToken, TENANTS, type TestServer, useTestServer, workerIp } from './helpers.js';
import { OpenApiAnswers } from './openapi-answers.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A hostile value; `raw` is a JSON text sent as it is (for keys JSON.stringify would not write). */
type Hostile = { label: string; value: Json; raw?: string };

const MB = 1024 * 1024;
const HOSTILE: Hostile[] = [
  { label: 'NUL', value: 'a\u0000b' },
  { label: 'lone surrogate', value: '\ud800' },
  { label: '1 MB string', value: 'x'.repeat(MB) },
  { label: '64 KB string', value: 'y'.repeat(64 * 1024) },
  { label: 'control characters', value: 'a\u0001\u0008\u001b[31m\u007fb' },
  { label: 'bidi controls', value: 'abc\u202edcba\u2066x\u2069' },
  { label: '../', value: '../' },
  { label: '%2e%2e/', value: '%2e%2e/' },
  { label: '.', value: '.' },
  { label: '..', value: '..' },
  { label: '-1', value: -1 },
  { label: '2^53+1', value: 2 ** 53 + 1 },
  { label: '1e308', value: 1e308 },
  { label: '10^20 as text', value: '99999999999999999999' },
  { label: 'boolean', value: true },
  { label: 'object', value: { a: 1 } },
  { label: 'array', value: ['a', 'b'] },
  { label: 'null', value: null },
  { label: '__proto__ text', value: '__proto__' },
  { label: '__proto__ key', value: { a: 1 }, raw: '{"__proto__":{"polluted":1},"a":1}' },
];

/** Real ids of the fuzzed organisation by parameter or property name, so requests reach past lookups. */
const ids: Record<string, string> = {};

/** A minimal valid value of a schema. */
function sample(schema: JsonSchema | undefined, name = ''): Json {
  if (ids[name] !== undefined && (!schema || schema.type === 'string' || !schema.type)) return ids[name];
  if (!schema) return 'a';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0] ?? 'a';
  if (schema.examples?.length) return schema.examples[0] as Json;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return sample(branches.find((b) => b.type !== 'null') ?? branches[0], name);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, (_, i) => {
        const item = sample(schema.items, name);
        return typeof item === 'string' && schema.uniqueItems ? `${item}${i}` : item;
      });
    case 'object': {
      const result: { [key: string]: Json } = {};
      for (const key of schema.required ?? []) result[key] = sample(schema.properties?.[key], key);
      return result;
    }
    default:
      if (schema.format === 'date-time') return '2026-11-01T00:00:00.000Z';
      if (schema.format === 'date') return '2026-11-01';
      if (schema.format === 'email') return 'fuzz@contoso.example';
      if (schema.format === 'uri') return 'https://contoso.example/x';
      if (/password/i.test(name)) return 'Fuzz-Passw0rd!';
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Where a body value sits: property names and array indexes from the body's root. */
type Pointer = (string | number)[];

/** Every property (and array item) of a body schema, with the body a pointer into it needs. */
function bodyFields(schema: JsonSchema, base: Json, at: Pointer = []): { pointer: Pointer; body: Json }[] {
  const fields: { pointer: Pointer; body: Json }[] = [];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    for (const branch of branches.filter((b) => b.type !== 'null')) {
      fields.push(...bodyFields(branch, at.length === 0 ? sample(branch) : base, at));
    }
    return fields;
  }
  if (schema.type === 'object' && schema.properties) {
    for (const [key, property] of Object.entries(schema.properties)) {
      const pointer = [...at, key];
      // An optional object is given its required members before its own members are fuzzed.
      const withParent = setAt(base, pointer, sample(property, key));
      fields.push({ pointer, body: base });
      fields.push(...bodyFields(property, withParent, pointer).filter((f) => f.pointer.length > pointer.length));
    }
  } else if (schema.type === 'array' && schema.items) {
    const pointer = [...at, 0];
    fields.push({ pointer, body: setAt(base, at, [sample(schema.items)]) });
    fields.push(
      ...bodyFields(schema.items, setAt(base, at, [sample(schema.items)]), pointer).filter(
        (f) => f.pointer.length > pointer.length,
      ),
    );
  }
  return fields;
}

function setAt(root: Json, pointer: Pointer, value: Json): Json {
  if (pointer.length === 0) return value;
  const [head, ...rest] = pointer;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    list[head] = setAt(list[head] ?? null, rest, value);
    return list;
  }
  const object = root && typeof root === 'object' && !Array.isArray(root) ? { ...root } : {};
  object[head as string] = setAt(object[head as string] ?? null, rest, value);
  return object;
}

/** A value as a URL component: lone surrogates, which encodeURIComponent refuses, as their UTF-8 bytes. */
function urlText(value: Json): string[] {
  if (Array.isArray(value)) return value.map((v) => urlText(v)[0] ?? '');
  if (value && typeof value === 'object') return ['[object Object]'];
  const text = String(value);
  try {
    return [encodeURIComponent(text)];
  } catch {
    return [text.replace(/[\ud800-\udfff]/g, '%ED%A0%80')];
  }
}

function baselineParams(endpoint: AnyEndpoint): Record<string, string> {
  const names = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const schemas = (endpoint.params as JsonSchema | undefined)?.properties ?? {};
  return Object.fromEntries(names.map((n) => [n, ids[n] ?? String(sample(schemas[n], n))]));
}

function buildUrl(endpoint: AnyEndpoint, params: Record<string, string[]>, query: Record<string, string[]>) {
  const prefix = endpoint.api === 'apollo' ? '/apollo-beta' : '/api';
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_m, name: string) => params[name]?.[0] ?? 'x');
  const search = Object.entries(query)
    .flatMap(([k, values]) => values.map((v) => `${encodeURIComponent(k)}=${v}`))
    .join('&');
  return `${prefix}${path}${search ? `?${search}` : ''}`;
}

/**
 * Counts row changes in every table but the audit log, the lockout counters of `users` and of unknown
 * addresses (`sign_in_failures`), the sign-in rate limits' counts (a refused request is counted
 * there: that is what a limit and a lockout are for) and a session's last use (any request of the
 * session is one, refused or not).
 */
async function installChangeCounter(server: TestServer) {
  const tables = await server.ctx.db.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = current_schema() and tablename not in ('audit_log', 'schema_migrations', 'rate_limits', 'sign_in_failures')`,
  );
  await server.ctx.db.exec(`
    create table fuzz_changes (n bigint not null);
    insert into fuzz_changes values (0);
    create function fuzz_count() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' and tg_op = 'UPDATE'
        and to_jsonb(old) - 'failed_attempts' - 'lockout_until' - 'totp_last_step'
          = to_jsonb(new) - 'failed_attempts' - 'lockout_until' - 'totp_last_step' then
        return null;
      end if;
      if tg_table_name = 'sessions' and tg_op = 'UPDATE'
        and to_jsonb(old) - 'last_seen_at' = to_jsonb(new) - 'last_seen_at' then
        return null;
      end if;
      update fuzz_changes set n = n + 1;
      return null;
    end $$;
    ${tables
      .map(
        (t) =>
          `create trigger fuzz_count after insert or update or delete on "${t.tablename}" for each row execute function fuzz_count();`,
      )
      .join('\n')}
  `);
}

async function changes(server: TestServer): Promise<number> {
  const [row] = await server.ctx.db.query<{ n: string | number }>('select n from fuzz_changes');
  return Number(row?.n ?? 0);
}

describe('fuzzing every endpoint with hostile values', () => {
  const server = useTestServer();
  let token = '';
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId: TENANTS.contoso }], pageSize: 5 });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      TENANTS.contoso,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    const graph = sim.state.tenant(TENANTS.contoso);
    const user = graph.users.find((u) => u.hasMailbox) ?? graph.users[0];
    ids.sourceId = user?.id ?? 'x';
    ids.mailboxId = user?.id ?? 'x';
    ids.principalId = graph.users[1]?.id ?? 'x';
    ids.teamId = graph.teams[0]?.id ?? 'x';
    ids.channelId = graph.teams[0]?.channels[0]?.id ?? 'x';
    ids.groupId = graph.teams[0]?.id ?? 'x';
    token = await sessionToken(server, ADMIN);
    ids.tenantId = TENANTS.contoso;
    ids.workerIp = await workerIp(server, 'Contoso');
    const [worker] = await server.ctx.db.query<{ id: string; index_ip: string }>(
      'select id, index_ip from workers where worker_ip = $1',
      [ids.workerIp],
    );
    ids.workerId = worker?.id ?? 'x';
    ids.indexIp = worker?.index_ip ?? 'x';
    ids.abbr = 'contoso';
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 order by name',
      [TENANTS.contoso],
    );
    ids.locationId = location?.location_id ?? 'x';
    const job = await server.request({
      method: 'POST',
      url: `/apollo-beta/api/${TENANTS.contoso}/jobs`,
      token,
      body: { name: 'Fuzz target', type: 'backup', application: 'onedrive', sources: [ids.sourceId ?? ''] },
    });
    expect(job.statusCode, job.body).toBe(200);
    ids.jobId = (job.json() as { jobId: string }).jobId;
    // Discovery of mailboxes and teams read once, as the job's accounts were above: an unknown id then
    // refused is not what makes discovery read Microsoft 365 for the first time (a write of its own).
    for (const application of ['exchange', 'teams']) {
      const found = await server.request({
        method: 'GET',
        url: `/apollo-beta/api/${TENANTS.contoso}/discovery/${ids.locationId}/users?application=${application}`,
        token,
      });
      expect(found.statusCode, found.body).toBe(200);
    }
    await installChangeCounter(server);
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('answers no request with a 5xx, and a refused request changes nothing', async () => {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    let before = await changes(server);

    // Every answer, refusals included, is checked against the published OpenAPI document too.
    const answers = new OpenApiAnswers();
    const record = async (endpoint: AnyEndpoint, label: string, response: LightMyRequestResponse) => {
      requests++;
      answers.check({
        operationId: endpoint.id,
        method: endpoint.method,
        path: label,
        status: response.statusCode,
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [
            name,
            value === undefined ? undefined : String(value),
          ]),
        ),
        body: response.rawPayload,
      });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const after = await changes(server);
      if (response.statusCode >= 500) {
        failures.push(`${response.statusCode} ${endpoint.id} ${label}: ${response.body.slice(0, 200)}`);
      } else if (response.statusCode >= 400 && after !== before) {
        failures.push(
          `${endpoint.id} ${label}: refused with ${response.statusCode} but changed ${after - before} rows`,
        );
      }
      before = after;
    };
    const send = async (endpoint: AnyEndpoint, label: string, url: string, payload?: string) => {
      const response = await server.app.inject({
        method: endpoint.method,
        url,
        headers: {
          ...(endpoint.api === 'apollo' ? { 'x-api-key': server.ctx.config.apiKey } : {}),
          authorization: endpoint.api === 'apollo' ? `Bearer ${token}` : token,
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload !== undefined ? { payload } : {}),
      });
      await record(endpoint, label, response);
    };

    // Sign-out ends the session the fuzz runs with: it comes last.
    const ordered = [...endpoints].sort(
      (a, b) => Number(a.id === 'legacy.auth.logout') - Number(b.id === 'legacy.auth.logout'),
    );
    for (const endpoint of ordered) {
      if (endpoint.bodyType === 'multipart') {
        // The upload's form: each text field, and the file's name, with each hostile value as text.
        const fields = { abbr: 'contoso', documentType: 'others', fileName: 'fuzz.pdf' };
        for (const hostile of HOSTILE) {
          for (const name of Object.keys(fields)) {
            const value = { ...fields, [name]: String(hostile.value) };
            const form = new FormData();
            form.set('abbr', value.abbr);
            form.set('documentType', value.documentType);
            form.set('file', new Blob([Buffer.from('%PDF-1.7 fuzz')], { type: 'application/pdf' }), value.fileName);
            const encoded = new Response(form);
            const response = await server.app.inject({
              method: endpoint.method,
              url: buildUrl(endpoint, {}, {}),
              headers: { authorization: token, 'content-type': encoded.headers.get('content-type') ?? '' },
              payload: Buffer.from(await encoded.arrayBuffer()),
            });
            await record(endpoint, `form ${name} = ${hostile.label}`, response);
          }
        }
        continue;
      }
      const params = baselineParams(endpoint);
      const query = endpoint.query ? (sample(endpoint.query) as Record<string, Json>) : {};
      const body = endpoint.body ? sample(endpoint.body) : undefined;
      const encodedParams = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, urlText(v)]));
      const encodedQuery = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, urlText(v)]));
      const bodyText = body === undefined ? undefined : JSON.stringify(body);

      for (const hostile of HOSTILE) {
        for (const name of Object.keys(params)) {
          const url = buildUrl(endpoint, { ...encodedParams, [name]: urlText(hostile.value) }, encodedQuery);
          await send(endpoint, `path ${name} = ${hostile.label}`, url, bodyText);
        }
        for (const name of Object.keys((endpoint.query as JsonSchema | undefined)?.properties ?? {})) {
          const url = buildUrl(endpoint, encodedParams, { ...encodedQuery, [name]: urlText(hostile.value) });
          await send(endpoint, `query ${name} = ${hostile.label}`, url, bodyText);
        }
        if (endpoint.body && body !== undefined) {
          for (const field of bodyFields(endpoint.body as JsonSchema, body)) {
            const payload = hostile.raw
              ? JSON.stringify(setAt(field.body, field.pointer, '\u0001RAW\u0001')).replace(
                  '"\\u0001RAW\\u0001"',
                  hostile.raw,
                )
              : JSON.stringify(setAt(field.body, field.pointer, hostile.value));
            await send(
              endpoint,
              `body ${field.pointer.join('.')} = ${hostile.label}`,
              buildUrl(endpoint, encodedParams, encodedQuery),
              payload,
            );
          }
        }
      }
    }

    const table = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.log(
      `fuzz: ${requests} requests; ${table.join(', ')}; 5xx: ${[...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0)}`,
    );
    console.log(answers.summary('fuzz'));
    expect(failures.slice(0, 60), `${failures.length} failures`).toEqual([]);
    expect(answers.problems.slice(0, 40), `${answers.problems.length} answers unlike the document`).toEqual([]);
    // The change counter works: the accepted requests among them did write.
    expect(await changes(server)).toBeGreaterThan(0);
  }, 300_000);
});
