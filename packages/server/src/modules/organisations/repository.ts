import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.js';
import {
  type LicenseKind,
  type Organisation,
  type OrganisationKind,
  type OrganisationRow,
  toOrganisation,
} from '../../db/records.js';

export type { LicenseKind, Organisation, OrganisationKind } from '../../db/records.js';
export { findOrganisation } from '../../db/records.js';

export interface WorkerRecord {
  workerId: string;
  workerIp: string;
  indexIp: string;
  organisationId: string;
  stagingtenantId: string | null;
}

interface WorkerRow {
  id: string;
  worker_ip: string;
  index_ip: string;
  organisation_id: string;
  stagingtenant_id: string | null;
}

const toWorker = (r: WorkerRow): WorkerRecord => ({
  workerId: r.id,
  workerIp: r.worker_ip,
  indexIp: r.index_ip,
  organisationId: r.organisation_id,
  stagingtenantId: r.stagingtenant_id,
});

/** A lower-case slug of the name, unique among organisations (`contoso`, `contoso-2`, …). */
async function uniqueAbbr(tx: Queryable, name: string): Promise<string> {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 12) || 'org';
  const taken = new Set(
    (await tx.query<{ abbr: string }>('select abbr from organisations where abbr like $1', [`${base}%`])).map(
      (r) => r.abbr,
    ),
  );
  let abbr = base;
  for (let n = 2; taken.has(abbr); n++) abbr = `${base}-${n}`;
  return abbr;
}

/** The next free worker address pair in 10.64.0.0/16 (worker) and 10.65.0.0/16 (index). */
async function nextWorkerAddress(tx: Queryable): Promise<{ workerIp: string; indexIp: string }> {
  const [row] = await tx.query<{ n: number }>('select count(*)::int as n from workers');
  const n = (row?.n ?? 0) + 1;
  const host = `${Math.floor(n / 250)}.${(n % 250) + 1}`;
  return { workerIp: `10.64.${host}`, indexIp: `10.65.${host}` };
}

export async function createOrganisation(
  tx: Queryable,
  input: { name: string; kind: OrganisationKind; license: LicenseKind; partnerId?: string | null; abbr?: string },
): Promise<{ organisation: Organisation; worker: WorkerRecord }> {
  const id = randomUUID();
  const abbr = input.abbr ?? (await uniqueAbbr(tx, input.name));
  const [org] = await tx.query<OrganisationRow>(
    'insert into organisations (id, name, kind, partner_id, license, abbr) values ($1, $2, $3, $4, $5, $6) returning *',
    [id, input.name, input.kind, input.partnerId ?? null, input.license, abbr],
  );
  const address = await nextWorkerAddress(tx);
  const [worker] = await tx.query<WorkerRow>(
    'insert into workers (id, organisation_id, worker_ip, index_ip) values ($1, $2, $3, $4) returning *',
    [randomUUID(), id, address.workerIp, address.indexIp],
  );
  if (!org || !worker) throw new Error('organisation insert returned nothing');
  return { organisation: toOrganisation(org), worker: toWorker(worker) };
}

export async function findWorkerByOrganisation(
  db: Queryable,
  organisationId: string,
): Promise<WorkerRecord | undefined> {
  const [row] = await db.query<WorkerRow>('select * from workers where organisation_id = $1', [organisationId]);
  return row ? toWorker(row) : undefined;
}

export async function findWorker(
  db: Queryable,
  by: { workerIp?: string; workerId?: string },
): Promise<WorkerRecord | undefined> {
  const [row] = by.workerIp
    ? await db.query<WorkerRow>('select * from workers where worker_ip = $1', [by.workerIp])
    : await db.query<WorkerRow>('select * from workers where id = $1', [by.workerId ?? '']);
  return row ? toWorker(row) : undefined;
}

export async function listOrganisations(db: Queryable, ids: readonly string[]): Promise<Organisation[]> {
  const rows = await db.query<OrganisationRow>('select * from organisations where id = any($1) order by name', [ids]);
  return rows.map(toOrganisation);
}

export async function allOrganisationIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('select id from organisations')).map((r) => r.id);
}

/** The organisation and the organisations it is the partner of. */
export async function organisationAndClientIds(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from organisations where id = $1 or partner_id = $1', [
    organisationId,
  ]);
  return rows.map((r) => r.id);
}

export async function isClientOf(db: Queryable, organisationId: string, partnerId: string): Promise<boolean> {
  const rows = await db.query('select 1 from organisations where id = $1 and partner_id = $2', [
    organisationId,
    partnerId,
  ]);
  return rows.length === 1;
}

/** The organisations that have a partner, whichever it is. */
export async function allClientIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('select id from organisations where partner_id is not null')).map((r) => r.id);
}

export async function clientIdsOf(db: Queryable, partnerId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from organisations where partner_id = $1', [partnerId]);
  return rows.map((r) => r.id);
}

export async function abbrTaken(db: Queryable, abbr: string): Promise<boolean> {
  return (await db.query('select 1 from organisations where abbr = $1', [abbr])).length > 0;
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
