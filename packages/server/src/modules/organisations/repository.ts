import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.js';
import {
  type LicenseKind,
  type Organisation,
  type OrganisationKind,
  type OrganisationRow,
  toOrganisation,
  toWorker,
  WORKER_WITH_TENANT,
  type WorkerRecord,
  type WorkerRow,
} from '../../db/records.js';

export type { LicenseKind, Organisation, OrganisationKind, WorkerRecord } from '../../db/records.js';
export { findOrganisation } from '../../db/records.js';

/** A lower-case slug of the name that no organisation has as its short name (`contoso`, `contoso-2`, …). */
async function freeAbbr(tx: Queryable, name: string): Promise<string> {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 12) || 'org';
  const taken = new Set(
    (
      await tx.query<{ abbr: string }>('select lower(abbr) as abbr from organisations where lower(abbr) like $1', [
        `${base}%`,
      ])
    ).map((r) => r.abbr),
  );
  let abbr = base;
  for (let n = 2; taken.has(abbr); n++) abbr = `${base}-${n}`;
  return abbr;
}

/** Worker and index addresses: the n-th pair in 10.64.0.0/16 (worker) and 10.65.0.0/16 (index). */
function workerAddress(n: number): { workerIp: string; indexIp: string } {
  const host = `${Math.floor(n / 250)}.${(n % 250) + 1}`;
  return { workerIp: `10.64.${host}`, indexIp: `10.65.${host}` };
}

/**
 * The organisation's worker, at the first free address from the count of workers on: an address a
 * deleted organisation's worker left, or one a concurrent creation took first, is skipped.
 */
async function insertWorker(tx: Queryable, organisationId: string): Promise<WorkerRow> {
  const [row] = await tx.query<{ n: number }>('select count(*)::int as n from workers');
  const first = (row?.n ?? 0) + 1;
  for (let n = first; n < first + 10_000; n++) {
    const address = workerAddress(n);
    const [worker] = await tx.query<WorkerRow>(
      `insert into workers (id, organisation_id, worker_ip, index_ip) values ($1, $2, $3, $4)
       on conflict (worker_ip) do nothing returning *`,
      [randomUUID(), organisationId, address.workerIp, address.indexIp],
    );
    if (worker) return worker;
  }
  throw new Error('no free worker address');
}

/** The unique indexes of short names: within a partner's family, and among organisations without a partner. */
export const ABBR_INDEXES = ['organisations_abbr_family', 'organisations_abbr_top'] as const;

/**
 * Stores an organisation with its worker. A short name given (a partner's client) must be free among
 * the partner's own organisation and its clients, or among the organisations without a partner: a
 * taken one fails with the unique violation of one of `ABBR_INDEXES`. Without one, a free one is made
 * from the name (unique platform-wide), and made again should a concurrent creation take it first.
 */
export async function createOrganisation(
  tx: Queryable,
  input: { name: string; kind: OrganisationKind; license: LicenseKind; partnerId?: string | null; abbr?: string },
): Promise<{ organisation: Organisation; worker: WorkerRecord }> {
  const id = randomUUID();
  const values = (abbr: string) => [id, input.name, input.kind, input.partnerId ?? null, input.license, abbr];
  const insert =
    'insert into organisations (id, name, kind, partner_id, license, abbr) values ($1, $2, $3, $4, $5, $6)';
  let org: OrganisationRow | undefined;
  if (input.abbr !== undefined) [org] = await tx.query<OrganisationRow>(`${insert} returning *`, values(input.abbr));
  for (let attempt = 0; !org && attempt < 100; attempt++) {
    // A concurrent insert of the same short name is waited for; if it commits, the next free one is taken.
    [org] = await tx.query<OrganisationRow>(
      `${insert} on conflict do nothing returning *`,
      values(await freeAbbr(tx, input.name)),
    );
  }
  if (!org) throw new Error('no free short name');
  const worker = await insertWorker(tx, id);
  return { organisation: toOrganisation(org), worker: toWorker(worker) };
}

/**
 * Stores many client organisations of one partner at once (the demo's fleet), each with its worker,
 * in two statements: their short names must be free in the partner's family. Returns the workers in
 * the order given.
 */
export async function createClientOrganisations(
  tx: Queryable,
  partnerId: string,
  inputs: readonly { name: string; license: LicenseKind; abbr: string; licenseValidUntil: Date | null }[],
): Promise<WorkerRecord[]> {
  if (inputs.length === 0) return [];
  const ids = inputs.map(() => randomUUID());
  await tx.query(
    `insert into organisations (id, name, kind, partner_id, license, abbr, license_valid_until)
     select id, name, 'customer', $5, license, abbr, valid_until
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $6::timestamptz[]) as o(id, name, license, abbr, valid_until)`,
    [
      ids,
      inputs.map((i) => i.name),
      inputs.map((i) => i.license),
      inputs.map((i) => i.abbr),
      partnerId,
      inputs.map((i) => i.licenseValidUntil?.toISOString() ?? null),
    ],
  );
  const [row] = await tx.query<{ n: number }>('select count(*)::int as n from workers');
  const first = (row?.n ?? 0) + 1;
  const addresses = ids.map((_, k) => workerAddress(first + k));
  const made = await tx.query<WorkerRow>(
    `insert into workers (id, organisation_id, worker_ip, index_ip)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])
     on conflict (worker_ip) do nothing returning *`,
    [ids.map(() => randomUUID()), ids, addresses.map((a) => a.workerIp), addresses.map((a) => a.indexIp)],
  );
  const byOrganisation = new Map(made.map((w) => [w.organisation_id, w]));
  const workers: WorkerRecord[] = [];
  // An address taken already (a deleted organisation's worker left it) is skipped one by one.
  for (const id of ids) workers.push(toWorker(byOrganisation.get(id) ?? (await insertWorker(tx, id))));
  return workers;
}

/** Whether the portal has any organisation yet (an empty portal has none until its first sign-up). */
export async function hasAnyOrganisation(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('select exists (select 1 from organisations) as any');
  return row?.any ?? false;
}

export async function findWorkerByOrganisation(
  db: Queryable,
  organisationId: string,
): Promise<WorkerRecord | undefined> {
  const [row] = await db.query<WorkerRow>(`${WORKER_WITH_TENANT} where w.organisation_id = $1`, [organisationId]);
  return row ? toWorker(row) : undefined;
}

export async function listOrganisations(db: Queryable, ids: readonly string[]): Promise<Organisation[]> {
  const rows = await db.query<OrganisationRow>('select * from organisations where id = any($1) order by name', [ids]);
  return rows.map(toOrganisation);
}

/** The organisations that have a partner, whichever it is. */
export async function allClientIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('select id from organisations where partner_id is not null')).map((r) => r.id);
}

export async function clientIdsOf(db: Queryable, partnerId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from organisations where partner_id = $1', [partnerId]);
  return rows.map((r) => r.id);
}

/**
 * Whether the partner's own organisation or one of its clients has this short name (case-insensitive):
 * the only short names a partner's choice is compared with.
 */
export async function abbrTakenInFamily(db: Queryable, partnerId: string, abbr: string): Promise<boolean> {
  const rows = await db.query(
    'select 1 from organisations where coalesce(partner_id, id) = $1 and lower(abbr) = lower($2)',
    [partnerId, abbr],
  );
  return rows.length > 0;
}

export interface PartnerSummary {
  id: string;
  name: string;
  clientCount: number;
}

export async function listPartners(db: Queryable): Promise<PartnerSummary[]> {
  const rows = await db.query<{ id: string; name: string; clients: number }>(
    `select p.id, p.name, (select count(*)::int from organisations c where c.partner_id = p.id) as clients
     from organisations p where p.kind = 'partner' order by p.name`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, clientCount: Number(r.clients) }));
}

/** One round trip to the database, for a worker's health check. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('select 1');
}

/** What a worker's health check needs of its active tenant: its sealed client secret and its provisioning. */
export async function workerTenantState(
  db: Queryable,
  tenantId: string,
): Promise<{ clientSecretSealed: string | null; provisioning: string } | undefined> {
  const [row] = await db.query<{ client_secret_enc: string | null; provisioning: string }>(
    'select client_secret_enc, provisioning from tenants where tenant_id = $1',
    [tenantId],
  );
  return row ? { clientSecretSealed: row.client_secret_enc, provisioning: row.provisioning } : undefined;
}

/** How many storage locations a worker's active tenant has: a worker's health check needs one at least. */
export async function countTenantLocations(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from locations where tenant_id = $1', [
    tenantId,
  ]);
  return row?.n ?? 0;
}
