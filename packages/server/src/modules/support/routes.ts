/**
 * Support requests from /account/support: kept with a reference, mailed to SUPPORT_EMAIL with the
 * requester's details, and a copy to the requester; at most MAX_PER_HOUR per person an hour. The
 * page's contacts (SUPPORT_EMAIL, SUPPORT_PHONE) come from here, so it names the address requests go to.
 */
import { randomUUID } from 'node:crypto';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { HttpError } from '../../http/errors.js';

export const MAX_PER_HOUR = 5;

export function supportRoutes(ctx: AppContext) {
  return routes({
    'apollo.support.contacts': {
      async handler() {
        return { email: ctx.config.supportEmail, phone: ctx.config.supportPhone };
      },
    },
    'apollo.support.createRequest': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const now = ctx.now();
        const day = now.toISOString().slice(0, 10).replace(/-/g, '');
        const requestId = randomUUID();
        const reference = await ctx.db.transaction(async (tx) => {
          // One request at a time: the hourly limit and the day's numbering hold under concurrent sends.
          await tx.query('select pg_advisory_xact_lock(72363)');
          const [recent] = await tx.query<{ n: number }>(
            'select count(*)::int as n from support_requests where user_id = $1 and created_at > $2',
            [user.id, new Date(now.getTime() - 3_600_000)],
          );
          if (Number(recent?.n ?? 0) >= MAX_PER_HOUR)
            throw new HttpError(429, `At most ${MAX_PER_HOUR} support requests an hour; please wait or call us.`);
          const [count] = await tx.query<{ n: number }>(
            'select count(*)::int as n from support_requests where reference like $1',
            [`SR-${day}-%`],
          );
          const ref = `SR-${day}-${String(Number(count?.n ?? 0) + 1).padStart(4, '0')}`;
          await tx.query(
            `insert into support_requests (request_id, reference, user_id, organisation_id, area, subject, message, phone, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              requestId,
              ref,
              user.id,
              user.organisationId,
              body.area,
              body.subject.trim(),
              body.message.trim(),
              body.phone?.trim() || null,
              now,
            ],
          );
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: user.organisationId,
              action: 'support.request',
              target: ref,
              outcome: 'success',
              details: { area: body.area },
            },
            tx,
          );
          return ref;
        });
        await ctx.mailer.send({
          to: ctx.config.supportEmail,
          subject: `[${reference}] ${body.subject.trim()}`,
          text: `From: ${user.email} (organisation ${user.organisationId})\nArea: ${body.area}\nPhone: ${body.phone?.trim() || '—'}\n\n${body.message.trim()}`,
        });
        // The request is kept and support has it; a copy that cannot be delivered is only logged.
        try {
          await ctx.mailer.send({
            to: user.email,
            subject: `We received your support request ${reference}`,
            text: `Thank you. Our support team (Monday to Friday, 9 AM to 5 PM) will answer your request "${body.subject.trim()}". Please quote ${reference} in any message about it.`,
          });
        } catch (error) {
          ctx.log.warn({ err: error, reference }, 'support request copy to the requester not sent');
        }
        return { requestId, reference, createdAt: now.toISOString() };
      },
    },
  });
}
