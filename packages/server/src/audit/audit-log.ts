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

/** An entry's hash: SHA-256 over the hash before it and the entry's fields as canonical JSON. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
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

/** Where an organisation's entries stop matching the chain, and how. */
export interface OrganisationChainReport {
  verified: boolean;
  /** The organisation's entries checked. */
  entries: number;
  firstSeq: number | null;
  lastSeq: number | null;
  brokenAt: number | null;
  problem: 'altered' | 'brokenLink' | 'missing' | null;
}

interface LinkedRow extends AuditRow {
  /** The hash of the entry before (any organisation's), null when there is none. */
  before_hash: string | null;
  /** The link of the entry after (any organisation's) back to this one, null when there is none. */
  after_prev_hash: string | null;
}

/**
 * Verifies one organisation's entries against the one chain all organisations share: each entry's
 * hash is recomputed, its link to the entry before it and the link of the entry after it back to it
 * are checked (the neighbours may be other organisations' entries; only their hashes are read), and
 * the chain has no gap from the organisation's first entry to its end. So an entry changed (with or
 * without its hash computed again), removed, moved to another organisation or added shows, at its
 * position. Like every chain without an outside anchor, it cannot show the chain rewritten from an
 * entry to its very end; `audit:verify` checks the whole chain from its start.
 */
export async function verifyOrganisationChain(
  db: Queryable,
  organisationId: string,
  pageSize = 2000,
): Promise<OrganisationChainReport> {
  const [end] = await db.query<{ last: string | number | null }>('select max(seq) as last from audit_log');
  const lastOfChain = Number(end?.last ?? 0);
  let first: number | null = null;
  let last: number | null = null;
  let entries = 0;
  let broken: { at: number; problem: 'altered' | 'brokenLink' | 'missing' } | null = null;
  const fail = (at: number, problem: 'altered' | 'brokenLink' | 'missing') => {
    if (!broken || at < broken.at) broken = { at, problem };
  };
  let after = 0;
  while (!broken) {
    const rows = await db.query<LinkedRow>(
      `select a.*, p.hash as before_hash, n.prev_hash as after_prev_hash
         from audit_log a
         left join audit_log p on p.seq = a.seq - 1
         left join audit_log n on n.seq = a.seq + 1
        where a.organisation_id = $1 and a.seq > $2
        order by a.seq limit $3`,
      [organisationId, after, pageSize],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const entry = toEntry(row);
      const { hash, ...rest } = entry;
      first ??= entry.seq;
      last = entry.seq;
      if (entryHash(rest) !== hash) fail(entry.seq, 'altered');
      else if (entry.seq === 1 ? entry.prevHash !== GENESIS_HASH : row.before_hash === null) {
        fail(entry.seq === 1 ? 1 : entry.seq - 1, entry.seq === 1 ? 'brokenLink' : 'missing');
      } else if (entry.seq > 1 && entry.prevHash !== row.before_hash) fail(entry.seq, 'brokenLink');
      else if (row.after_prev_hash === null ? entry.seq < lastOfChain : row.after_prev_hash !== hash) {
        fail(entry.seq + 1, row.after_prev_hash === null ? 'missing' : 'brokenLink');
      }
      if (broken) break;
      entries += 1;
      after = entry.seq;
    }
  }
  if (first !== null && last !== null) {
    // An entry removed between two of the organisation's (whoever's it was) leaves a gap in the positions.
    const [span] = await db.query<{ n: number }>(
      'select count(*)::int as n from audit_log where seq between $1 and $2',
      [first, last],
    );
    if (Number(span?.n ?? 0) !== last - first + 1) {
      const [gap] = await db.query<{ seq: string | number }>(
        `select a.seq + 1 as seq from audit_log a
          where a.seq >= $1 and a.seq < $2 and not exists (select 1 from audit_log b where b.seq = a.seq + 1)
          order by a.seq limit 1`,
        [first, last],
      );
      if (gap) fail(Number(gap.seq), 'missing');
    }
  }
  const found = broken as { at: number; problem: 'altered' | 'brokenLink' | 'missing' } | null;
  return {
    verified: found === null,
    entries,
    firstSeq: first,
    lastSeq: last,
    brokenAt: found?.at ?? null,
    problem: found?.problem ?? null,
  };
}
