/**
 * Mails about a run that ended, to the people who act for the tenant's organisation (its own users
 * and its partner's) as their notification settings ask: a failed run when `jobFailed`, a finished
 * one when `jobFinished`, to the settings' address or their account's, in the settings' language. A
 * mail that cannot be sent is logged; it never changes the run.
 */
import type { NotificationSettings } from '@compliance-portal/sdk';
import type { AppContext } from '../context.js';
import { type MailLanguage, renderMail } from '../mail/mail-document.js';
import { runLink } from '../mail/portal-links.js';
import { templatesFor } from '../mail/templates.js';

/**
 * The notification settings of a user who never chose any; a setting never stored is its default.
 * Owned here, where the mails go out; the users module shows and stores them over these.
 */
export const DEFAULT_NOTIFICATIONS = {
  jobFailed: true,
  jobFinished: false,
  dailySummary: false,
  weeklyReport: true,
  licenseExpiry: true,
};

/** What a user stored of their settings: possibly only some of them (older settings), or nothing. */
export type StoredNotificationSettings = Partial<NotificationSettings> | null | undefined;

/** The settings a user's mails go by: what they stored over the defaults. */
export function effectiveSettings(stored: StoredNotificationSettings) {
  return { ...DEFAULT_NOTIFICATIONS, ...(stored ?? {}) };
}

/** The language of a user's mails: the one they chose; English while they chose none. */
export function mailLanguageOf(stored: StoredNotificationSettings): MailLanguage {
  return stored?.language === 'de' ? 'de' : 'en';
}

export async function notifyRunEnded(
  ctx: AppContext,
  run: { run_id: string; job_id: string; tenant_id: string },
  status: 'finished' | 'failed' | 'stopped',
  message: string,
) {
  if (status === 'stopped') return;
  try {
    const rows = await ctx.db.query<{
      email: string;
      settings: StoredNotificationSettings;
      job: string;
      type: string;
      tenant: string;
    }>(
      `select u.email, n.settings, j.name as job, j.type, t.tenant_name as tenant
         from jobs j join tenants t on t.tenant_id = j.tenant_id
         join organisations o on o.id = t.organisation_id
         join users u on u.organisation_id = o.id or u.organisation_id = o.partner_id
         left join notification_settings n on n.user_id = u.id
        where j.job_id = $1 and u.deactivated_at is null`,
      [run.job_id],
    );
    const wanted = status === 'failed' ? 'jobFailed' : 'jobFinished';
    for (const row of rows) {
      if (!effectiveSettings(row.settings)[wanted]) continue;
      const language = mailLanguageOf(row.settings);
      const mail = templatesFor(language).runEnded({
        job: row.job,
        tenant: row.tenant,
        status,
        message,
        link: runLink(ctx.config.publicUrl, row.type, run.run_id),
      });
      await ctx.mailer.send(renderMail(row.settings?.email ?? row.email, mail, language));
    }
  } catch (error) {
    ctx.log.warn({ err: error, runId: run.run_id }, 'run notification failed');
  }
}
