/**
 * Apollo audit log: every security- or data-relevant action of an organisation, hash-chained on the
 * server. An addition to the portal's original contract, for administrators.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { listQueryProperties, page } from '../common.js';

/** Schema of one audit-log entry, an item of the page `GET /api/audit-log` answers. */
export const AuditEntry = s.object({
  seq: s.integer({ minimum: 1, description: 'Position in the chain.' }),
  at: s.dateTime(),
  actorUserId: s.nullable(s.string()),
  actorEmail: s.nullable(s.string()),
  actorName: s.nullable(s.string({ description: "The actor's display name, while the account exists." })),
  organisationId: s.nullable(s.string()),
  action: s.string({ description: 'Such as auth.signin, tenant.create, location.delete.' }),
  target: s.nullable(s.string()),
  targetName: s.nullable(
    s.string({
      description: 'The name of what `target` names (a user, tenant, location, job, case, organisation), where known.',
    }),
  ),
  outcome: s.oneOfStrings(['success', 'failure']),
  ip: s.nullable(s.string()),
  details: s.record(s.unknown()),
  prevHash: s.string({ description: 'SHA-256 of the entry before (hex).' }),
  hash: s.string({ description: 'SHA-256 over prevHash and this entry (hex).' }),
});
/**
 * One security- or data-relevant action in an organisation's audit log: when (`at`), who (`actorUserId`,
 * `actorEmail` and, while the account exists, `actorName`; null when no user is known), what (`action`
 * such as `tenant.create`, its `target` with its name where known, `outcome` and `details`) and from
 * which address (`ip`). `hash` chains the entry to the one before (`prevHash`), so a changed or removed
 * entry shows.
 */
export type AuditEntry = s.Static<typeof AuditEntry>;

/** Schema of the query of `GET /api/audit-log`. */
export const AuditQuery = s.object({
  ...listQueryProperties,
  organisationId: s.optional(s.string({ description: "Default the caller's organisation." })),
  action: s.optional(s.string({ maxLength: 64, description: 'Exact action or a prefix ending in a dot.' })),
  actor: s.optional(
    s.string({ maxLength: 200, description: "Part of the actor's address or name (case-insensitive)." }),
  ),
  outcome: s.optional(s.oneOfStrings(['success', 'failure'])),
  from: s.optional(s.dateTime('Entries at or after.')),
  to: s.optional(s.dateTime('Entries before. Not before `from`: a range given backwards is refused with 400.')),
});
/**
 * Which audit entries to list: the organisation (default the caller's; a partner may name a client
 * organisation, an operator any), an exact `action` or a prefix ending in a dot (`auth.`), the actor
 * (part of the address or name), the outcome, and a time range (`from` inclusive, `to` exclusive), with
 * paging.
 */
export type AuditQuery = s.Static<typeof AuditQuery>;

/** Schema of the query of `GET /api/audit-log/verify`. */
export const AuditVerifyQuery = s.object({
  organisationId: s.optional(s.string({ maxLength: 200, description: "Default the caller's organisation." })),
});
/** Whose chain to verify: the organisation (default the caller's; as for the list). */
export type AuditVerifyQuery = s.Static<typeof AuditVerifyQuery>;

/** Schema of the answer of `GET /api/audit-log/verify`. */
export const AuditChainReport = s.object({
  verified: s.boolean('Every entry of the organisation and its links in the chain match.'),
  entries: s.integer({ minimum: 0, description: "The organisation's entries checked." }),
  firstSeq: s.nullable(s.integer({ minimum: 1 })),
  lastSeq: s.nullable(s.integer({ minimum: 1 })),
  brokenAt: s.nullable(s.integer({ minimum: 1, description: 'The position of the first entry that does not match.' })),
  problem: s.nullable(
    s.oneOfStrings(
      ['altered', 'brokenLink', 'missing'],
      'altered: an entry differs from its hash; brokenLink: an entry does not follow from the one before or after it; missing: an entry of the chain is gone.',
    ),
  ),
  checkedAt: s.dateTime(),
  durationMs: s.integer({ minimum: 0 }),
});
/**
 * Whether an organisation's audit entries are as they were written: each entry's hash recomputed and
 * its links to the entries before and after it in the one chain checked, and the chain checked for
 * gaps. When not, the first position that does not match and how (`altered`, `brokenLink`, `missing`).
 */
export type AuditChainReport = s.Static<typeof AuditChainReport>;

/**
 * The catalogue entries of the audit log: `list` (`GET /api/audit-log`) and `verify` (`GET
 * /api/audit-log/verify`). {@link auditApi} binds them.
 */
export const auditEndpoints = defineResource('apollo', 'audit', {
  list: {
    method: 'GET',
    path: '/api/audit-log',
    scope: 'caller',
    summary: "An organisation's audit log, newest first",
    query: AuditQuery,
    response: page(AuditEntry),
  },
  verify: {
    method: 'GET',
    path: '/api/audit-log/verify',
    scope: 'caller',
    summary: "Verify an organisation's audit entries against the hash chain",
    query: AuditVerifyQuery,
    response: AuditChainReport,
  },
});

/**
 * Binds the audit log to a transport: `list(args?)` answers one page of an organisation's entries,
 * newest first, and `list.items()` iterates over all of them; `verify(args?)` checks them against the
 * hash chain. The same methods as `client.apollo.audit`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function auditApi(transport: Transport) {
  return bindResource(transport, auditEndpoints);
}
