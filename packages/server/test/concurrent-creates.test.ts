/**
 * Parallel duplicate creates against the real server (listening on a port, requests over sockets at
 * once), for every create endpoint of the catalogue: eight identical requests, then eight that differ
 * only where the server compares without regard to case (an address, a name, a GUID). No answer may be
 * a 5xx; where the thing is unique exactly one succeeds and every other answer is the endpoint's own
 * documented refusal (status and code or text); every answer is valid against the OpenAPI document;
 * the database holds what the successes made and nothing more.
 *
 * On PostgreSQL each request runs on a connection of its own, so a check-then-insert race shows as
 * the unique index's refusal. PGlite runs one transaction at a time: there a race shows only where the
 * check runs outside the inserting transaction (register, partner clients, users, tenants).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import { type EndpointId, endpoints } from '@compliance-portal/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  API_KEY,
  codeFor,
  discovered,
  organisationId,
  PARTNER,
  sessionToken,
  TENANTS,
  useTestServer,
  workerIp,
} from './helpers.js';
import { OpenApiAnswers } from './openapi-answers.js';

const PARALLEL = 8;

/** A request of a round: its path under the API's base, and a JSON body or a form. */
interface Call {
  path: string;
  token?: string;
  body?: unknown;
  form?: () => FormData;
}
/** A documented refusal: the status, and the code, the text or the validation error code it carries. */
interface Refusal {
  status: number;
  code?: string;
  text?: string;
  validation?: string;
}
interface Round {
  label: string;
  before?: () => Promise<void>;
  send: (i: number) => Call;
  /** How many of the eight succeed: 1 where the thing is unique; a range where the order decides. */
  successes: number | readonly [number, number];
  refusals: Refusal[];
  /** The rows the round's successes made, counted in the database. */
  rows: () => Promise<number>;
  /** How many `rows` counts: as many as successes unless said otherwise (a replaced upload, a hold). */
  expectedRows?: number;
  /** Anything else the round must leave true (checked after the rows). */
  after?: () => Promise<void>;
}
interface Case {
  id: EndpointId;
  rounds: () => Round[];
}

/** The i-th spelling of `text` in upper and lower case: eight different ones for a text of three letters or more. */
function spelling(text: string, i: number): string {
  let letter = 0;
  return [...text]
    .map((c) => {
      if (c.toLowerCase() === c.toUpperCase()) return c;
      const upper = ((i >> (letter++ % 3)) & 1) === 1;
      return upper ? c.toUpperCase() : c.toLowerCase();
    })
    .join('');
}

const byId = new Map(endpoints.map((e) => [e.id as string, e]));
/** The words of an endpoint id that say it makes something. */
const CREATES = /create|register|add|grant|upload|hold/i;

describe('parallel duplicate creates on every create endpoint', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-concurrent-'));
  const server = useTestServer({ dataDir });
  const answers = new OpenApiAnswers();
  const tally = { requests: 0, fiveHundreds: 0, endpoints: new Set<string>() };
  let origin = '';
  let sim: RunningSimulator;
  let admin = '';
  let partner = '';
  const ids = {
    contosoOrg: '',
    contosoIp: '',
    tailspinIp: '',
    mailbox: '',
    reader: '',
    tailspinAccount: 'race.account@tailspin.example',
    tailspinMailbox: 'race.mailbox@tailspin.example',
  };
  const count = async (sql: string, params: unknown[]) => {
    const [row] = await server.ctx.db.query<{ n: number }>(sql, params);
    return Number(row?.n ?? 0);
  };

  beforeAll(async () => {
    sim = await startSimulator({ tenants: [{ tenantId: TENANTS.contoso }], pageSize: 50 });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      TENANTS.contoso,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    const graph = sim.state.tenant(TENANTS.contoso);
    const withMailbox = graph.users.filter((u) => u.hasMailbox);
    ids.mailbox = withMailbox[0]?.id ?? '';
    ids.reader = withMailbox[1]?.id ?? '';
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
    ids.contosoOrg = await organisationId(server, 'Contoso');
    ids.contosoIp = await workerIp(server, 'Contoso');
    ids.tailspinIp = await workerIp(server, 'Tailspin Toys');
    // Mailboxes are the accounts of OneDrive's discovery.
    await discovered(server, TENANTS.tailspin, 'onedrive', [ids.tailspinAccount, ids.tailspinMailbox]);
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await sim?.close();
    console.log(
      `parallel duplicate creates: ${tally.endpoints.size} endpoints, ${tally.requests} requests; 5xx: ${tally.fiveHundreds}`,
    );
    console.log(answers.summary('parallel duplicate creates'));
  });

  /** Sends the round's eight requests at once; the answers with their parsed bodies. */
  async function fire(id: EndpointId, round: Round) {
    const endpoint = byId.get(id);
    if (!endpoint) throw new Error(`no endpoint ${id}`);
    const base = endpoint.api === 'apollo' ? '/apollo-beta' : '/api';
    const calls = Array.from({ length: PARALLEL }, (_, i) => round.send(i));
    return Promise.all(
      calls.map(async (call) => {
        const headers: Record<string, string> = {};
        if (endpoint.api === 'apollo') headers['x-api-key'] = API_KEY;
        if (call.token) headers.authorization = endpoint.api === 'apollo' ? `Bearer ${call.token}` : call.token;
        let body: BodyInit | undefined;
        if (call.form) body = call.form();
        else if (call.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(call.body);
        }
        const response = await fetch(`${origin}${base}${call.path}`, { method: endpoint.method, headers, body });
        const raw = Buffer.from(await response.arrayBuffer());
        answers.check({
          operationId: id,
          method: endpoint.method,
          path: `${base}${call.path}`,
          status: response.status,
          headers: Object.fromEntries(response.headers.entries()),
          body: raw,
        });
        let json: Record<string, unknown> = {};
        try {
          json = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
        } catch {
          json = {};
        }
        return { status: response.status, json, text: raw.toString('utf8').slice(0, 300) };
      }),
    );
  }

  const matches = (refusal: Refusal, answer: { status: number; json: Record<string, unknown> }) =>
    answer.status === refusal.status &&
    (refusal.code === undefined || answer.json.code === refusal.code) &&
    (refusal.text === undefined || answer.json.message === refusal.text || answer.json.detail === refusal.text) &&
    (refusal.validation === undefined ||
      Object.hasOwn((answer.json.errors as Record<string, unknown> | undefined) ?? {}, refusal.validation));

  const pdf = (name: string) => () => {
    const form = new FormData();
    form.set('abbr', 'contoso');
    form.set('documentType', 'contracts');
    form.set('file', new Blob([Buffer.from(`%PDF-1.7 ${name}`)], { type: 'application/pdf' }), name);
    return form;
  };

  const cases: Case[] = [
    {
      id: 'apollo.auth.register',
      rounds: () =>
        ['race@register.example', 'race.two@register.example'].map((email, r) => ({
          label: r === 0 ? 'identical' : 'the address in eight spellings',
          send: (i) => ({
            path: '/register',
            body: { email: r === 0 ? email : spelling(email, i), password: 'Race-Passw0rd!' },
          }),
          successes: 1,
          refusals: [{ status: 400, validation: 'DuplicateUserName' }],
          rows: () => count('select count(*)::int as n from users where email = $1', [email]),
          after: async () => {
            // The losing requests left no organisation behind either: one per registered address.
            expect(
              await count(`select count(*)::int as n from organisations where lower(name) = 'register.example'`, []),
            ).toBe(r + 1);
          },
        })),
    },
    {
      id: 'apollo.tenants.create',
      rounds: () =>
        ['8d3f1c2a-5b6e-4c7d-9e8f-0a1b2c3d4e5f', 'aa3f1c2a-5b6e-4c7d-9e8f-0a1b2c3d4eff'].map((tenantId, r) => ({
          label: r === 0 ? 'identical' : 'the tenant id in eight spellings',
          send: (i) => ({
            path: '/api/Tenants',
            token: admin,
            body: {
              tenantName: 'Race tenant',
              tenantId: r === 0 ? tenantId : spelling(tenantId, i),
              applicationId: '11111111-2222-4333-8444-555555555555',
              objectId: '66666666-7777-4888-8999-aaaaaaaaaaaa',
              clientSecret: 'race-secret',
              redirectUri: 'https://portal.example/callback',
              organisationId: ids.contosoOrg,
            },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A tenant with this tenant ID is already connected.' }],
          rows: () => count('select count(*)::int as n from tenants where lower(tenant_id) = $1', [tenantId]),
        })),
    },
    {
      id: 'apollo.jobs.create',
      rounds: () =>
        [ids.tailspinAccount, ids.tailspinAccount].map((source, r) => ({
          label:
            r === 0
              ? 'identical, on a trial licence (one backup job per application)'
              : 'the account in eight spellings',
          before: async () => {
            await server.ctx.db.query(`delete from jobs where tenant_id = $1 and type = 'backup'`, [TENANTS.tailspin]);
          },
          send: (i) => ({
            path: `/api/${TENANTS.tailspin}/jobs`,
            token: partner,
            body: {
              name: `Race backup ${r}`,
              type: 'backup',
              application: 'onedrive',
              sources: [r === 0 ? source : spelling(source, i)],
            },
          }),
          successes: 1,
          refusals: [{ status: 403, code: 'trialBackupJobs' }],
          rows: () => count('select count(*)::int as n from jobs where name = $1', [`Race backup ${r}`]),
        })),
    },
    {
      id: 'legacy.jobs.create',
      rounds: () =>
        [0, 1].map((r) => ({
          label: r === 0 ? 'identical (archive jobs are not unique)' : 'the mailbox in eight spellings',
          send: (i) => ({
            path: '/jobs/scheduled-job/create',
            token: partner,
            body: {
              workerIp: ids.tailspinIp,
              prefix: 'email',
              name: `Race archive ${r}`,
              sources: [r === 0 ? ids.tailspinMailbox : spelling(ids.tailspinMailbox, i)],
            },
          }),
          successes: PARALLEL,
          refusals: [],
          rows: () => count('select count(*)::int as n from jobs where name = $1', [`Race archive ${r}`]),
        })),
    },
    {
      id: 'apollo.locations.create',
      rounds: () =>
        ['Race vault', 'Race vault two'].map((name, r) => ({
          label: r === 0 ? 'identical' : 'the name in eight spellings',
          send: (i) => ({
            path: `/api/${TENANTS.contoso}/locations`,
            token: admin,
            body: {
              name: r === 0 ? name : spelling(name, i),
              siteAddress: 'https://contoso.sharepoint.com/sites/race',
            },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A location with this name already exists.' }],
          rows: () =>
            count('select count(*)::int as n from locations where tenant_id = $1 and lower(name) = lower($2)', [
              TENANTS.contoso,
              name,
            ]),
        })),
    },
    {
      // Not a create, but the same race: eight locations renamed to one name at once.
      id: 'apollo.locations.update',
      rounds: () => {
        const sources: string[] = [];
        return ['Renamed vault', 'Renamed vault two'].map((name, r) => ({
          label: r === 0 ? 'eight locations given one name' : 'eight locations given one name in eight spellings',
          before: async () => {
            sources.length = 0;
            for (let i = 0; i < PARALLEL; i++) {
              const made = await server.request({
                method: 'POST',
                url: `/apollo-beta/api/${TENANTS.contoso}/locations`,
                token: admin,
                body: { name: `Rename source ${r}-${i}`, siteAddress: 'https://contoso.sharepoint.com/sites/race' },
              });
              expect(made.statusCode, made.body).toBe(200);
              sources.push((made.json() as { locationId: string }).locationId);
            }
          },
          send: (i) => ({
            path: `/api/${TENANTS.contoso}/locations/${sources[i]}`,
            token: admin,
            body: {
              name: r === 0 ? name : spelling(name, i),
              siteAddress: 'https://contoso.sharepoint.com/sites/race',
            },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A location with this name already exists.' }],
          rows: () =>
            count('select count(*)::int as n from locations where tenant_id = $1 and lower(name) = lower($2)', [
              TENANTS.contoso,
              name,
            ]),
        }));
      },
    },
    {
      id: 'apollo.ediscovery.createCase',
      rounds: () =>
        ['Race case', 'Race case two'].map((name, r) => ({
          label: r === 0 ? 'identical' : 'the name in eight spellings',
          send: (i) => ({
            path: `/api/${TENANTS.contoso}/ediscovery/cases`,
            token: admin,
            body: { name: r === 0 ? name : spelling(name, i), search: { query: 'race' } },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A case with this name already exists.' }],
          rows: () =>
            count('select count(*)::int as n from ediscovery_cases where tenant_id = $1 and lower(name) = lower($2)', [
              TENANTS.contoso,
              name,
            ]),
        })),
    },
    {
      id: 'apollo.ediscovery.holdCase',
      rounds: () => {
        let caseId = '';
        return [
          {
            label: 'identical (holding a held case changes nothing)',
            before: async () => {
              const made = await server.request({
                method: 'POST',
                url: `/apollo-beta/api/${TENANTS.contoso}/ediscovery/cases`,
                token: admin,
                body: { name: 'Race hold', search: { query: 'standup', mailboxes: [ids.mailbox] } },
              });
              expect(made.statusCode, made.body).toBe(201);
              caseId = (made.json() as { caseId: string }).caseId;
            },
            send: () => ({ path: `/api/${TENANTS.contoso}/ediscovery/cases/${caseId}/hold`, token: admin }),
            successes: PARALLEL,
            refusals: [],
            expectedRows: 1,
            rows: () =>
              count('select count(*)::int as n from ediscovery_cases where case_id = $1 and held_at is not null', [
                caseId,
              ]),
          },
        ];
      },
    },
    {
      // Not a create but a grant: eight at once make one eDiscovery manager and one audit entry.
      id: 'legacy.user.grantEdiscoveryManager',
      rounds: () => {
        const email = 'race.manager@contoso.example';
        let userId = '';
        return [
          {
            label: 'identical (a manager already stays one)',
            before: async () => {
              const made = await server.request({
                method: 'POST',
                url: '/api/admin/user_create',
                token: admin,
                body: { email, displayName: 'Race manager', role: 'admin' },
              });
              expect(made.statusCode, made.body).toBe(201);
              userId = (made.json() as { userId: string }).userId;
            },
            send: () => ({ path: `/admin/users/${userId}/ediscovery-manager`, token: admin }),
            successes: PARALLEL,
            refusals: [],
            expectedRows: 1,
            rows: () =>
              count(
                `select count(*)::int as n from audit_log where action = 'user.ediscoveryManager.grant' and target = $1`,
                [userId],
              ),
          },
        ];
      },
    },
    {
      // Not a create but the use of a one-time link: eight acceptances at once begin one sign-in.
      id: 'legacy.invitations.accept',
      rounds: () => {
        const email = 'race.invitee@contoso.example';
        let token = '';
        return [
          {
            label: 'identical (one link, used once)',
            before: async () => {
              const made = await server.request({
                method: 'POST',
                url: '/api/admin/user_create',
                token: admin,
                body: { email, displayName: 'Race invitee', role: 'admin' },
              });
              expect(made.statusCode, made.body).toBe(201);
              token =
                server.mails
                  .filter((m) => m.to === email)
                  .at(-1)
                  ?.link?.split('/')
                  .at(-1) ?? '';
            },
            send: () => ({
              path: `/auth/invitations/${token}`,
              body: { password: 'Race-Passw0rd!', confirmPassword: 'Race-Passw0rd!' },
            }),
            successes: 1,
            refusals: [{ status: 404, code: 'invitationInvalid' }],
            rows: () =>
              count(
                "select count(*)::int as n from audit_log where action = 'user.invitation.accept' and actor_email = $1",
                [email],
              ),
          },
        ];
      },
    },
    {
      // Not a create, but what must not race: two administrators deactivating each other at once leave
      // one of them active (the organisation's users are locked while its last administrator is counted).
      id: 'legacy.user.deactivate',
      rounds: () => {
        const people = ['race.first@northwind.example', 'race.second@northwind.example'];
        const sessions: string[] = [];
        const userIds: string[] = [];
        return [
          {
            label: 'each deactivating the other',
            before: async () => {
              const northwind = await organisationId(server, 'Northwind Traders');
              for (const email of people) {
                const made = await server.request({
                  method: 'POST',
                  url: '/api/admin/user_create',
                  token: partner,
                  body: { email, displayName: email, role: 'admin', organisationId: northwind },
                });
                expect(made.statusCode, made.body).toBe(201);
                userIds.push((made.json() as { userId: string }).userId);
                const link =
                  server.mails
                    .filter((m) => m.to === email)
                    .at(-1)
                    ?.link?.split('/')
                    .at(-1) ?? '';
                const accepted = await server.request({
                  method: 'POST',
                  url: `/api/auth/invitations/${link}`,
                  body: { password: 'Race-Passw0rd!', confirmPassword: 'Race-Passw0rd!' },
                });
                expect(accepted.statusCode, accepted.body).toBe(200);
                const started = await server.request({
                  method: 'POST',
                  url: '/api/auth/signin',
                  body: { email, password: 'Race-Passw0rd!' },
                });
                const signin = (started.json() as { token: string }).token;
                const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token: signin });
                const verified = await server.request({
                  method: 'POST',
                  url: '/api/auth/qrcode-verification',
                  token: signin,
                  body: { code: codeFor(server, (qr.json() as { key: string }).key) },
                });
                expect(verified.statusCode, verified.body).toBe(200);
                sessions.push((verified.json() as { token: string }).token);
              }
              server.clock.advance(30_000);
            },
            send: (i) => ({
              path: `/admin/users/${userIds[(i + 1) % 2]}/deactivation`,
              token: sessions[i % 2],
            }),
            successes: [1, PARALLEL / 2],
            refusals: [{ status: 401 }, { status: 409, code: 'lastAdministrator' }],
            expectedRows: 1,
            rows: () =>
              count('select count(*)::int as n from users where id = any($1) and deactivated_at is not null', [
                userIds,
              ]),
            after: async () => {
              expect(
                await count(
                  "select count(*)::int as n from audit_log where action = 'user.deactivate' and target = any($1)",
                  [userIds],
                ),
              ).toBe(1);
            },
          },
        ];
      },
    },
    {
      id: 'apollo.support.createRequest',
      rounds: () => {
        const before = new Set<string>();
        const references = async () =>
          (
            await server.ctx.db.query<{ reference: string }>(
              `select reference from support_requests where subject = 'Race request' order by reference`,
            )
          ).map((r) => r.reference);
        const round = (label: string, prepare?: () => Promise<void>): Round => ({
          label,
          before: async () => {
            await prepare?.();
            for (const reference of await references()) before.add(reference);
          },
          send: () => ({
            path: '/api/support-requests',
            token: admin,
            body: { subject: 'Race request', area: 'backup', message: 'Sent eight times at once.' },
          }),
          // Five an hour per person: the sixth to eighth are refused with 429.
          successes: 5,
          refusals: [{ status: 429 }],
          rows: async () => (await references()).filter((r) => !before.has(r)).length,
          after: async () => {
            const all = await references();
            expect(new Set(all).size, 'no reference repeats').toBe(all.length);
          },
        });
        return [
          round('identical'),
          // An organisation's deletion removes its requests: the day's numbering must not repeat a reference then.
          round('identical, an hour later, after one of the day’s requests was removed', async () => {
            server.clock.advance(3_600_000);
            await server.ctx.db.query(
              `delete from support_requests where request_id = (select request_id from support_requests
                 where subject = 'Race request' order by reference limit 1)`,
            );
          }),
        ];
      },
    },
    {
      id: 'legacy.workers.addPartnerClient',
      rounds: () => [
        {
          label: 'identical',
          send: () => ({
            path: '/partner-clients',
            token: partner,
            body: {
              name: 'Race Client',
              abbr: 'race-client',
              license: 'full',
              adminEmail: 'admin@race-client.example',
            },
          }),
          successes: 1,
          refusals: [
            { status: 409, text: 'A user with this email already exists.' },
            { status: 409, text: 'This short name is already used by one of your organisations.' },
          ],
          rows: () => count(`select count(*)::int as n from organisations where abbr = 'race-client'`, []),
        },
        {
          label: 'the administrator address in eight spellings (eight short names)',
          send: (i) => ({
            path: '/partner-clients',
            token: partner,
            body: {
              name: 'Race Client B',
              abbr: `race-b-${i}`,
              license: 'full',
              adminEmail: spelling('admin@race-b.example', i),
            },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A user with this email already exists.' }],
          rows: () => count(`select count(*)::int as n from organisations where abbr like 'race-b-%'`, []),
        },
        {
          label: 'one short name, eight administrators',
          send: (i) => ({
            path: '/partner-clients',
            token: partner,
            body: { name: 'Race Client C', abbr: 'race-c', license: 'full', adminEmail: `admin${i}@race-c.example` },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'This short name is already used by one of your organisations.' }],
          rows: () => count(`select count(*)::int as n from users where email like '%@race-c.example'`, []),
        },
      ],
    },
    {
      id: 'legacy.files.upload',
      rounds: () =>
        ['Race contract.pdf', 'Race contract two.pdf'].map((name, r) => ({
          label: r === 0 ? 'identical (the same name and type is replaced)' : 'the name in eight spellings',
          send: (i) => ({ path: '/files/upload-file', token: admin, form: pdf(r === 0 ? name : spelling(name, i)) }),
          successes: PARALLEL,
          refusals: [],
          expectedRows: 1,
          rows: () =>
            count(
              `select count(*)::int as n from documents where document_type = 'contracts' and lower(file_name) = lower($1)`,
              [name],
            ),
          after: async () => {
            // Every stored file is a listed document's: none was left behind by a replaced or lost upload.
            const listed = await count('select count(*)::int as n from documents', []);
            expect(readdirSync(join(dataDir, 'documents')).length).toBe(listed);
          },
        })),
    },
    {
      id: 'legacy.proxyRights.grant',
      rounds: () => [
        {
          label: 'identical',
          send: () => ({
            path: '/proxy-rights',
            token: admin,
            body: { workerIp: ids.contosoIp, mailboxId: ids.mailbox, principalIds: [ids.reader] },
          }),
          successes: 1,
          refusals: [{ status: 409 }],
          rows: () =>
            count('select count(*)::int as n from proxy_rights where mailbox_id = $1 and principal_id = $2', [
              ids.mailbox,
              ids.reader,
            ]),
        },
      ],
    },
    {
      id: 'legacy.user.create',
      rounds: () =>
        ['race.user@contoso.example', 'race.user.two@contoso.example'].map((email, r) => ({
          label: r === 0 ? 'identical' : 'the address in eight spellings',
          send: (i) => ({
            path: '/admin/user_create',
            token: admin,
            body: { email: r === 0 ? email : spelling(email, i), displayName: 'Race user', role: 'admin' },
          }),
          successes: 1,
          refusals: [{ status: 409, text: 'A user with this email already exists.' }],
          rows: () => count('select count(*)::int as n from users where email = $1', [email]),
        })),
    },
    {
      // Enrolling the authenticator: one sign-in token, the QR's key; the codes of neighbouring time steps are all valid.
      id: 'legacy.auth.qrcodeVerification',
      rounds: () => {
        const email = 'race.enrol@contoso.example';
        let token = '';
        let key = '';
        return [
          {
            label: 'four valid codes of neighbouring time steps, each twice',
            before: async () => {
              await server.ctx.db.query(
                `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
                 select gen_random_uuid()::text, $1, 'Race enrol', password_hash, 'admin', organisation_id, true
                   from users where email = $2`,
                [email, ADMIN],
              );
              const signin = await server.request({
                method: 'POST',
                url: '/api/auth/signin',
                body: { email, password: 'Demo-Passw0rd!' },
              });
              token = (signin.json() as { token: string }).token;
              const qr = await server.request({ method: 'GET', url: '/api/auth/generateQR', token });
              key = (qr.json() as { key: string }).key;
            },
            send: (i) => ({
              path: '/auth/qrcode-verification',
              token,
              body: { code: codeFor(server, key, (i % 4) - 1) },
            }),
            successes: 1,
            refusals: [
              { status: 400, code: 'invalidVerificationCode' },
              { status: 409, text: 'Two-factor authentication is already set up.' },
              // The sign-in token is used up by the success: a request that reads it after that has none.
              { status: 401 },
            ],
            rows: () =>
              count(
                'select count(*)::int / 10 as n from recovery_codes where user_id = (select id from users where email = $1)',
                [email],
              ),
          },
        ];
      },
    },
    {
      // Turning 2FA on again after a key reset, through apollo: codes of neighbouring steps are all valid.
      id: 'apollo.auth.twoFactor',
      rounds: () => {
        const email = 'race.twofactor@contoso.example';
        let token = '';
        let key = '';
        return [
          {
            label: 'enable with four valid codes of neighbouring time steps, each twice',
            before: async () => {
              await server.ctx.db.query(
                `insert into users (id, email, display_name, password_hash, role, organisation_id, email_confirmed)
                 select gen_random_uuid()::text, $1, 'Race 2FA', password_hash, 'admin', organisation_id, true
                   from users where email = $2`,
                [email, ADMIN],
              );
              token = await sessionToken(server, email);
              const [row] = await server.ctx.db.query<{ totp_secret: string }>(
                'select totp_secret from users where email = $1',
                [email],
              );
              const reset = await server.request({
                method: 'POST',
                url: '/apollo-beta/manage/2fa',
                token,
                body: {
                  resetSharedKey: true,
                  resetRecoveryCodes: false,
                  forgetMachine: false,
                  oldPassword: 'Demo-Passw0rd!',
                  twoFactorCode: codeFor(server, server.ctx.secrets.open(row?.totp_secret ?? '')),
                },
              });
              expect(reset.statusCode, reset.body).toBe(200);
              key = (reset.json() as { sharedKey: string }).sharedKey;
              await server.ctx.db.query(
                'delete from recovery_codes where user_id = (select id from users where email = $1)',
                [email],
              );
              server.clock.advance(90_000);
            },
            send: (i) => ({
              path: '/manage/2fa',
              token,
              body: {
                enable: true,
                twoFactorCode: codeFor(server, key, (i % 4) - 1),
                resetSharedKey: false,
                resetRecoveryCodes: false,
                forgetMachine: false,
              },
            }),
            // Each code's time step is accepted once, in order: how many of the four pass depends on
            // the order they arrive in. Whichever do, one set of recovery codes is made (turning 2FA on
            // updates the account's row, so the enables take turns and the later ones find the codes).
            successes: [1, 4],
            refusals: [{ status: 400, validation: 'InvalidTwoFactorCode' }],
            expectedRows: 1,
            rows: () =>
              count(
                'select count(*)::int / 10 as n from recovery_codes where user_id = (select id from users where email = $1)',
                [email],
              ),
            after: async () => {
              expect(
                await count(
                  'select count(*)::int as n from recovery_codes where user_id = (select id from users where email = $1)',
                  [email],
                ),
              ).toBe(10);
            },
          },
        ];
      },
    },
  ];

  it('covers every endpoint of the catalogue that creates, registers, adds, grants, uploads or holds', () => {
    const creating = endpoints
      .filter((e) => e.method !== 'GET' && CREATES.test(e.id.split('.').at(-1) ?? ''))
      .map((e) => e.id as string);
    const covered = new Set(cases.map((c) => c.id as string));
    expect(creating.filter((id) => !covered.has(id))).toEqual([]);
  });

  for (const { id, rounds } of cases) {
    it(`${id}: no 5xx, the documented refusal, one row where the thing is unique`, async () => {
      tally.endpoints.add(id);
      for (const round of rounds()) {
        await round.before?.();
        const before = answers.problems.length;
        const results = await fire(id, round);
        tally.requests += results.length;
        tally.fiveHundreds += results.filter((r) => r.status >= 500).length;
        const where = `${id}, ${round.label}: ${results.map((r) => `${r.status} ${r.text}`).join(' | ')}`;
        expect(
          results.filter((r) => r.status >= 500),
          where,
        ).toEqual([]);
        const succeeded = results.filter((r) => r.status < 300).length;
        const [least, most] =
          typeof round.successes === 'number' ? [round.successes, round.successes] : round.successes;
        expect(succeeded, where).toBeGreaterThanOrEqual(least);
        expect(succeeded, where).toBeLessThanOrEqual(most);
        const stray = results.filter((r) => r.status >= 300 && !round.refusals.some((refusal) => matches(refusal, r)));
        expect(stray, where).toEqual([]);
        expect(answers.problems.slice(before), where).toEqual([]);
        expect(await round.rows(), where).toBe(round.expectedRows ?? succeeded);
        await round.after?.();
      }
    });
  }
});
