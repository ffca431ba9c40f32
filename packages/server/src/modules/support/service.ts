/**
 * Support requests from /account/support: kept with a reference, mailed to SUPPORT_EMAIL with the
 * requester's details, and a copy to the requester; at most MAX_PER_HOUR per person an hour. The
 * page's contacts (SUPPORT_EMAIL, SUPPORT_PHONE) come from here, so it names the address requests go to.
 */
import { randomUUID } from 'node:crypto';
import type { SupportRequestCreate } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { countRequestsSince, highestReferenceNumber, insertSupportRequest, lockSupportRequests } from './repository.js';

export const MAX_PER_HOUR = 5;

export function supportContacts(ctx: AppContext) {
  return { email: ctx.config.supportEmail, phone: ctx.config.supportPhone };
}

/**
 * Keeps the request with the day's next reference (`SR-20261102-0001`), audits it, mails it to support
 * and a copy to the requester. More than MAX_PER_HOUR requests of one person an hour are refused with 429.
 */
export async function sendSupportRequest(
  ctx: AppContext,
  actor: Actor,
  input: SupportRequestCreate,
): Promise<{ requestId: string; reference: string; createdAt: Date }> {
  const { user } = actor;
  const now = ctx.now();
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  const requestId = randomUUID();
  const subject = input.subject.trim();
  const message = input.message.trim();
  const phone = input.phone?.trim() || null;
  const reference = await ctx.db.transaction(async (tx) => {
    // One request at a time: the hourly limit and the day's numbering hold under concurrent sends.
    await lockSupportRequests(tx);
    if ((await countRequestsSince(tx, user.id, new Date(now.getTime() - 3_600_000))) >= MAX_PER_HOUR)
      throw new HttpError(429, `At most ${MAX_PER_HOUR} support requests an hour; please wait or call us.`);
    const prefix = `SR-${day}-`;
    const ref = `${prefix}${String((await highestReferenceNumber(tx, prefix)) + 1).padStart(4, '0')}`;
    await insertSupportRequest(tx, {
      requestId,
      reference: ref,
      userId: user.id,
      organisationId: user.organisationId,
      area: input.area,
      subject,
      message,
      phone,
      createdAt: now,
    });
    await ctx.audit(
      {
        ...actedBy(user, actor.ip),
        organisationId: user.organisationId,
        action: 'support.request',
        target: ref,
        outcome: 'success',
        details: { area: input.area },
      },
      tx,
    );
    return ref;
  });
  await ctx.mailer.send({
    to: ctx.config.supportEmail,
    subject: `[${reference}] ${subject}`,
    text: `From: ${user.email} (organisation ${user.organisationId})\nArea: ${input.area}\nPhone: ${phone || '—'}\n\n${message}`,
  });
  // The request is kept and support has it; a copy that cannot be delivered is only logged.
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: `We received your support request ${reference}`,
      text: `Thank you. Our support team (Monday to Friday, 9 AM to 5 PM) will answer your request "${subject}". Please quote ${reference} in any message about it.`,
    });
  } catch (error) {
    ctx.log.warn({ err: error, reference }, 'support request copy to the requester not sent');
  }
  return { requestId, reference, createdAt: now };
}
