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
  organisationId: s.nullable(s.string()),
  action: s.string({ description: 'Such as auth.signin, tenant.create, location.delete.' }),
  target: s.nullable(s.string()),
  outcome: s.oneOfStrings(['success', 'failure']),
  ip: s.nullable(s.string()),
  details: s.record(s.unknown()),
  prevHash: s.string({ description: 'SHA-256 of the entry before (hex).' }),
  hash: s.string({ description: 'SHA-256 over prevHash and this entry (hex).' }),
});
/**
 * One security- or data-relevant action in an organisation's audit log: when (`at`), who (`actorUserId`
 * and `actorEmail`, null when no user is known), what (`action` such as `tenant.create`, its `target`,
 * `outcome` and `details`) and from which address (`ip`). `hash` chains the entry to the one before
 * (`prevHash`), so a changed or removed entry shows.
 */
export type AuditEntry = s.Static<typeof AuditEntry>;

/** Schema of the query of `GET /api/audit-log`. */
export const AuditQuery = s.object({
  ...listQueryProperties,
  organisationId: s.optional(s.string({ description: "Default the caller's organisation." })),
  action: s.optional(s.string({ maxLength: 64, description: 'Exact action or a prefix ending in a dot.' })),
  outcome: s.optional(s.oneOfStrings(['success', 'failure'])),
  from: s.optional(s.dateTime('Entries at or after.')),
  to: s.optional(s.dateTime('Entries before. Not before `from`: a range given backwards is refused with 400.')),
});
/**
 * Which audit entries to list: the organisation (default the caller's; a partner may name a client
 * organisation, an operator any), an exact `action` or a prefix ending in a dot (`auth.`), the outcome,
 * and a time range (`from` inclusive, `to` exclusive), with paging.
 */
export type AuditQuery = s.Static<typeof AuditQuery>;

/** The catalogue entry of the audit log: `list`, `GET /api/audit-log`. {@link auditApi} binds it. */
export const auditEndpoints = defineResource('apollo', 'audit', {
  list: {
    method: 'GET',
    path: '/api/audit-log',
    summary: "An organisation's audit log, newest first",
    query: AuditQuery,
    response: page(AuditEntry),
  },
});

/**
 * Binds the audit log to a transport: `list(args?)` answers one page of an organisation's entries,
 * newest first, and `list.items()` iterates over all of them. The same methods as
 * `client.apollo.audit`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function auditApi(transport: Transport) {
  return bindResource(transport, auditEndpoints);
}
