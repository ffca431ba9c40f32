/**
 * Mails about a run that ended, to the people who act for the tenant's organisation (its own users
 * and its partner's) as their notification settings ask: a failed run when `jobFailed`, a finished
 * one when `jobFinished`, to the settings' address or their account's. A mail that cannot be sent is
 * logged; it never changes the run.
 */
import type { AppContext } from '../context.js';

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
      settings: (Partial<typeof DEFAULT_NOTIFICATIONS> & { email?: string }) | null;
      job: string;
      tenant: string;
    }>(
      `select u.email, n.settings, j.name as job, t.tenant_name as tenant
         from jobs j join tenants t on t.tenant_id = j.tenant_id
         join organisations o on o.id = t.organisation_id
         join users u on u.organisation_id = o.id or u.organisation_id = o.partner_id
         left join notification_settings n on n.user_id = u.id
        where j.job_id = $1`,
      [run.job_id],
    );
    const wanted = status === 'failed' ? 'jobFailed' : 'jobFinished';
    for (const row of rows) {
      const settings = { ...DEFAULT_NOTIFICATIONS, ...(row.settings ?? {}) };
      if (!settings[wanted]) continue;
      await ctx.mailer.send({
        to: row.settings?.email ?? row.email,
        subject: `${row.job} ${status === 'failed' ? 'failed' : 'finished'}`,
        text: `The job "${row.job}" of ${row.tenant} ${status === 'failed' ? 'failed' : 'finished'}: ${message}\n\nSee its report in the portal: ${ctx.config.publicUrl}/`,
      });
    }
  } catch (error) {
    ctx.log.warn({ err: error, runId: run.run_id }, 'run notification failed');
  }
}
