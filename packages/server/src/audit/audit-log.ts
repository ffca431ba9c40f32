import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';

export interface AuditEvent {
  actorUserId?: string | null;
  actorEmail?: string | null;
  organisationId?: string | null;
  /** Dotted verb such as `auth.signin`, `tenant.create`, `location.delete`. */
  action: string;
  target?: string | null;
  outcome: 'success' | 'failure';
  ip?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEntry extends Required<Omit<AuditEvent, 'details'>> {
  seq: number;
  at: string;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);
const LOCK_ID = 72362;

/** JSON with object keys sorted at every depth, so jsonb's key order does not change the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const body = canonicalJson([
    entry.seq,
    entry.at,
    entry.actorUserId,
    entry.actorEmail,
    entry.organisationId,
    entry.action,
    entry.target,
    entry.outcome,
    entry.ip,
    entry.details,
  ]);
  return createHash('sha256').update(`${entry.prevHash}\n${body}`).digest('hex');
}

export interface AuditRow {
  seq: number;
  at: Date;
  actor_user_id: string | null;
  actor_email: string | null;
  organisation_id: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'failure';
  ip: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: new Date(row.at).toISOString(),
    actorUserId: row.actor_user_id,
    actorEmail: row.actor_email,
    organisationId: row.organisation_id,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    ip: row.ip,
    details: row.details ?? {},
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * Appends to the hash-chained audit log inside the caller's transaction, so the entry lands with
 * the change it records or not at all. Appends are serialised by an advisory lock.
 */
export async function appendAudit(tx: Queryable, event: AuditEvent, now: Date): Promise<AuditEntry> {
  await tx.query('select pg_advisory_xact_lock($1)', [LOCK_ID]);
  const [last] = await tx.query<{ seq: number; hash: string }>(
    'select seq, hash from audit_log order by seq desc limit 1',
  );
  const partial: Omit<AuditEntry, 'hash'> = {
    seq: (last ? Number(last.seq) : 0) + 1,
    at: new Date(Math.floor(now.getTime())).toISOString(),
    actorUserId: event.actorUserId ?? null,
    actorEmail: event.actorEmail ?? null,
    organisationId: event.organisationId ?? null,
    action: event.action,
    target: event.target ?? null,
    outcome: event.outcome,
    ip: event.ip ?? null,
    details: JSON.parse(JSON.stringify(event.details ?? {})) as Record<string, unknown>,
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const entry: AuditEntry = { ...partial, hash: entryHash(partial) };
  await tx.query(
    `insert into audit_log (seq, at, actor_user_id, actor_email, organisation_id, action, target, outcome, ip, details, prev_hash, hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      entry.seq,
      entry.at,
      entry.actorUserId,
      entry.actorEmail,
      entry.organisationId,
      entry.action,
      entry.target,
      entry.outcome,
      entry.ip,
      JSON.stringify(entry.details),
      entry.prevHash,
      entry.hash,
    ],
  );
  return entry;
}

export interface ChainReport {
  ok: boolean;
  entries: number;
  /** The first entry whose stored hash or link does not match. */
  brokenAt?: number;
  reason?: string;
}

/** Recomputes the whole chain in pages; stops at the first entry that does not match. */
export async function verifyAuditChain(db: Database, pageSize = 1000): Promise<ChainReport> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let count = 0;
  for (;;) {
    const rows = await db.query<AuditRow>('select * from audit_log where seq >= $1 order by seq limit $2', [
      expectedSeq,
      pageSize,
    ]);
    if (rows.length === 0) return { ok: true, entries: count };
    for (const row of rows) {
      const entry = toEntry(row);
      if (entry.seq !== expectedSeq)
        return { ok: false, entries: count, brokenAt: expectedSeq, reason: 'missing entry' };
      if (entry.prevHash !== prevHash) return { ok: false, entries: count, brokenAt: entry.seq, reason: 'broken link' };
      const { hash, ...rest } = entry;
      if (entryHash(rest) !== hash) return { ok: false, entries: count, brokenAt: entry.seq, reason: 'altered entry' };
      prevHash = hash;
      expectedSeq += 1;
      count += 1;
    }
  }
}
