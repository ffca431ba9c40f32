/** The identity mails: what they say and where their links point. */
import type { AppContext } from '../../context.js';

/** Mailed apollo codes are base64url of the stored token, as ASP.NET encodes them. */
const encodeCode = (token: string) => Buffer.from(token, 'utf8').toString('base64url');
export const decodeCode = (code: string) => Buffer.from(code, 'base64url').toString('utf8');

/**
 * The confirmation link, to the portal's page `/confirm-email`, which confirms with these parameters
 * and says what happened (confirmed, already confirmed, expired, used) with the next step. Apollo's
 * `GET /confirmEmail` takes the same parameters. `changedEmail` for an email change, which the link
 * confirms for that address only.
 */
export async function mailConfirmation(
  ctx: AppContext,
  user: { id: string },
  to: string,
  token: string,
  changedEmail?: string,
) {
  const query = new URLSearchParams({
    userId: user.id,
    code: encodeCode(token),
    ...(changedEmail ? { changedEmail } : {}),
  });
  const link = `${ctx.config.publicUrl}/confirm-email?${query}`;
  const what = changedEmail
    ? `Someone signed in to a compliance portal account asked to make ${changedEmail} its email address.\n\nConfirm the new address: ${link}\n\nFrom then on the account signs in with this address, and every session of it ends.`
    : `Confirm your email address for the compliance portal: ${link}\n\nThen sign in and set up your authenticator app.`;
  await ctx.mailer.send({
    to,
    subject: 'Confirm your email',
    text: `${what}\n\nThe link works once, for 24 hours. If it was not you, ignore this mail.`,
    link,
  });
}

/** Tells the address in use that a change to another one was asked for; no link, nothing to click. */
export async function mailEmailChangeNotice(ctx: AppContext, to: string, newEmail: string) {
  await ctx.mailer.send({
    to,
    subject: 'Your email address is being changed',
    text: `Someone signed in to your compliance portal account asked to change its email address to ${newEmail}.\n\nThe change takes effect when the new address confirms it. If it was not you, change your password and tell your administrator.`,
  });
}

/** Apollo's reset mail: the code, which the app sends back to /resetPassword. */
export async function mailResetCode(ctx: AppContext, to: string, token: string) {
  await ctx.mailer.send({
    to,
    subject: 'Reset your password',
    text: `Your password reset code: ${encodeCode(token)}`,
  });
}

/** The legacy reset mail: a link to the portal's new-password page. */
export async function mailResetLink(ctx: AppContext, to: string, token: string) {
  const link = `${ctx.config.publicUrl}/reset-password/${token}`;
  await ctx.mailer.send({
    to,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of your compliance portal account.\n\nSet a new password: ${link}\n\nThe link works once, for 24 hours. If it was not you, ignore this mail.`,
    link,
  });
}

/** A change of how an organisation signs in, for the mail to its administrators. */
export interface SignInChangeNotice {
  organisationName: string;
  /** Who changed it: a member's address, or the operator's command. */
  by: string;
  at: Date;
  ip: string | null;
  /** What changed, each as it was and as it is, in words. */
  changes: readonly { what: string; before: string; after: string }[];
}

/** A moment as the sign-in change mails write it: `2026-11-02 08:00 UTC`. */
export const mailTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Tells each administrator of an organisation that its sign-in settings changed: what (before →
 * after), by whom, when and from where. Nothing to click: a mail that asks to sign in through a link
 * is what a phishing mail looks like.
 */
export async function mailSignInChange(ctx: AppContext, to: readonly string[], notice: SignInChangeNotice) {
  const lines = notice.changes.map((change) => `- ${change.what}: ${change.before} → ${change.after}`);
  const text = [
    `${notice.by} changed how ${notice.organisationName} signs in to the compliance portal on ${mailTime(notice.at)}${notice.ip ? `, from the address ${notice.ip}` : ''}:`,
    '',
    ...lines,
    '',
    'You receive this as an administrator of the organisation. If you did not expect the change, sign in to the portal, check Account → Settings → Sign-in and security → "How your organisation signs in", and tell the person named above.',
  ].join('\n');
  for (const address of to) {
    await ctx.mailer.send({
      to: address,
      subject: `The sign-in settings of ${notice.organisationName} were changed`,
      text,
    });
  }
}
