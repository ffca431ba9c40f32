import type { AuditEvent } from './audit-log.js';

/**
 * The actor members of an audit event: the signed-in user's id and email and the address the request
 * came from. Spread into the event: `ctx.audit({ ...actedBy(user, rc.ip), action: 'tenant.create', … })`.
 */
export function actedBy(
  user: { id: string; email: string },
  ip: string | null | undefined,
): Pick<AuditEvent, 'actorUserId' | 'actorEmail' | 'ip'> {
  return { actorUserId: user.id, actorEmail: user.email, ip: ip ?? null };
}
