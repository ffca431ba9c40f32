/**
 * The scheduled notifications: the daily summary, the weekly report and the licence warnings, each
 * sent once per user and period as the user's notification settings ask, in their language, at the
 * times of their organisation's time zone.
 *
 * Once only: a mail's row (user, kind, period) is inserted before the mail is composed and sent, and
 * the primary key lets one process of any number win it. Should the process die between the insert
 * and the send, that mail is not sent at all (its row stays `claimed`): a summary or report missed
 * once is less harm than one sent twice to every user at every restart, and a licence warning has a
 * later stage that follows. A mail the mail server refuses gives its claim up, so the next pass (a
 * minute later) tries it again while its period is due.
 */
import { FLEET_AREAS } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { effectiveSettings, mailLanguageOf } from '../../jobs/notify.js';
import { isTimeZone, zonedTime } from '../../jobs/schedule.js';
import { renderMail } from '../../mail/mail-document.js';
import type { MailMessage } from '../../mail/mailer.js';
import { areaLink, clientsLink, licenceLink, runLink } from '../../mail/portal-links.js';
import { type SummaryRun, templatesFor, type WeeklyPartnerInput } from '../../mail/templates.js';
import { fleetAreaJobs } from '../fleet/repository.js';
import { fleetFor } from '../fleet/service.js';
import type { User } from '../identity/users.js';
import { findUserById } from '../identity/users-repository.js';
import {
  areaWeeks,
  claimSend,
  licencesEnding,
  listRecipients,
  organisationTenantIds,
  problemRuns,
  type Recipient,
  releaseSend,
  type ScheduledKind,
  settleSend,
} from './repository.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The local hour the daily summary and the weekly report (on Mondays) are due at. */
const SEND_HOUR = 7;
/** How late a due summary is still sent (a process that was down longer skips it: the next is near). */
const DAILY_GRACE = 6 * HOUR;
const WEEKLY_GRACE = DAY;
/** The licence warnings: 14 and 3 days before the licence ends, and when it has ended. */
const LICENCE_STAGES = [14, 3, 0] as const;
/** How long after its end an ended licence is still told (a licence long ended is no news). */
const LICENCE_ENDED_GRACE = 7 * DAY;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

function localDate(at: Date, timeZone: string): LocalDate {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(at)
    .filter((p) => p.type !== 'literal');
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: field('year'), month: field('month'), day: field('day') };
}

function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const isoDate = (d: LocalDate) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The daily summary due last at `now`: its day (the period), when it was due, and the 24 hours before. */
function dueDay(now: Date, timeZone: string) {
  let day = localDate(now, timeZone);
  if (now < zonedTime(day, SEND_HOUR, timeZone)) day = addDays(day, -1);
  return {
    period: isoDate(day),
    from: zonedTime(addDays(day, -1), SEND_HOUR, timeZone),
    to: zonedTime(day, SEND_HOUR, timeZone),
  };
}

/** The weekly report due last at `now`: its Monday (the period), when it was due, and the week before. */
function dueWeek(now: Date, timeZone: string) {
  const today = localDate(now, timeZone);
  const weekday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7;
  let monday = addDays(today, -weekday);
  if (now < zonedTime(monday, SEND_HOUR, timeZone)) monday = addDays(monday, -7);
  return {
    period: isoDate(monday),
    from: zonedTime(addDays(monday, -7), SEND_HOUR, timeZone),
    to: zonedTime(monday, SEND_HOUR, timeZone),
  };
}

/** The licence warning due at `now` for a licence ending at `until`: 14, 3 or 0 (ended), or none. */
function licenceStage(now: Date, until: Date): (typeof LICENCE_STAGES)[number] | undefined {
  const left = until.getTime() - now.getTime();
  if (left <= 0) return -left < LICENCE_ENDED_GRACE ? 0 : undefined;
  return [...LICENCE_STAGES].reverse().find((stage) => stage > 0 && left <= stage * DAY);
}

/**
 * Sends one scheduled mail once: claims its row, composes it (null: nothing to tell, recorded as
 * such), sends it and records that. Whether it was sent by this call.
 */
async function sendOnce(
  ctx: AppContext,
  key: { userId: string; kind: ScheduledKind; period: string },
  compose: () => Promise<MailMessage | null>,
): Promise<boolean> {
  if (!(await claimSend(ctx.db, key, ctx.now()))) return false;
  let mail: MailMessage | null;
  try {
    mail = await compose();
  } catch (error) {
    await releaseSend(ctx.db, key);
    throw error;
  }
  if (!mail) {
    await settleSend(ctx.db, key, 'empty', ctx.now());
    return false;
  }
  try {
    await ctx.mailer.send(mail);
  } catch (err) {
    await releaseSend(ctx.db, key);
    ctx.log.warn({ err, userId: key.userId, kind: key.kind, period: key.period }, 'scheduled notification not sent');
    return false;
  }
  await settleSend(ctx.db, key, 'sent', ctx.now());
  return true;
}

const addressOf = (r: Recipient) => r.settings?.email ?? r.email;
const zoneOf = (r: Recipient) => (isTimeZone(r.time_zone) ? r.time_zone : 'UTC');

/**
 * The daily summary of the 24 hours before 07:00 (the organisation's time): per client and tenant,
 * the runs that failed or ended with warnings, each linked on its area's job monitor. A day without
 * any sends no mail: the summary is there to be acted on, and a daily "nothing happened" would teach
 * its readers to skip it (the weekly report tells that all is well).
 */
async function dailySummary(ctx: AppContext, r: Recipient, now: Date): Promise<boolean> {
  const timeZone = zoneOf(r);
  const { period, from, to } = dueDay(now, timeZone);
  if (now.getTime() - to.getTime() > DAILY_GRACE) return false;
  return sendOnce(ctx, { userId: r.id, kind: 'dailySummary', period }, async () => {
    const rows = await problemRuns(ctx.db, r.organisation_id, from, to);
    if (rows.length === 0) return null;
    const groups: { organisation: string; tenant: string; runs: SummaryRun[] }[] = [];
    for (const row of rows) {
      let group = groups.at(-1);
      if (group?.organisation !== row.organisation || group.tenant !== row.tenant) {
        group = { organisation: row.organisation, tenant: row.tenant, runs: [] };
        groups.push(group);
      }
      group.runs.push({
        job: row.job,
        outcome: row.status === 'failed' ? 'failed' : 'warnings',
        warnings: Number(row.warnings),
        message: row.message ?? '',
        at: new Date(row.finished),
        link: runLink(ctx.config.publicUrl, row.type, row.run_id, row.organisation_id),
      });
    }
    const language = mailLanguageOf(r.settings);
    return renderMail(addressOf(r), templatesFor(language).dailySummary({ from, to, timeZone, groups }), language);
  });
}

/** Every client of a partner's fleet, most urgent first, as the fleet service computes them. */
async function wholeFleet(ctx: AppContext, user: User) {
  const pageSize = 500;
  const first = await fleetFor(ctx, user, { pageSize });
  const clients = [...first.items];
  for (let page = 2; (page - 1) * pageSize < first.total; page++) {
    clients.push(...(await fleetFor(ctx, user, { page, pageSize })).items);
  }
  return clients;
}

const latest = (dates: readonly (string | null)[]) =>
  dates.reduce<Date | null>((a, d) => (d && (!a || new Date(d) > a) ? new Date(d) : a), null);

/**
 * The weekly report of the week before Monday 07:00 (the organisation's time). A partner's: one line
 * per client of its fleet (attention, failed runs in 24 hours and 7 days, the newest success of any
 * area, stored bytes), read from the fleet service, most urgent first. A customer administrator's:
 * each area that has a job, with its runs and failures of the week, its newest success and its
 * stored bytes. Nothing to report (a partner without clients, a customer without jobs) sends no
 * mail; operators get none (the fleet of every partner is no one's week).
 */
async function weeklyReport(ctx: AppContext, r: Recipient, now: Date): Promise<boolean> {
  if (r.role === 'operator') return false;
  const timeZone = zoneOf(r);
  const { period, from, to } = dueWeek(now, timeZone);
  if (now.getTime() - to.getTime() > WEEKLY_GRACE) return false;
  return sendOnce(ctx, { userId: r.id, kind: 'weeklyReport', period }, async () => {
    const language = mailLanguageOf(r.settings);
    const templates = templatesFor(language);
    const { publicUrl } = ctx.config;
    if (r.role === 'partner') {
      const user = await findUserById(ctx.db, r.id);
      if (!user) return null;
      const fleet = await wholeFleet(ctx, user);
      if (fleet.length === 0) return null;
      const clients: WeeklyPartnerInput['clients'] = fleet.map((c) => ({
        name: c.name,
        attention: c.attention,
        failed24h: c.runs24h.failed,
        failed7d: c.runs7d.failed,
        lastSuccess: latest(Object.values(c.lastSuccess)),
        storedBytes: c.storedBytes,
      }));
      const mail = templates.weeklyPartner({
        partner: r.organisation,
        from,
        to,
        timeZone,
        clients,
        link: clientsLink(publicUrl),
      });
      return renderMail(addressOf(r), mail, language);
    }
    const weeks = await areaWeeks(ctx.db, r.organisation_id, from, to);
    if (weeks.length === 0) return null;
    const successes = await fleetAreaJobs(ctx.db, await organisationTenantIds(ctx.db, r.organisation_id), to);
    const areas = weeks
      .sort((a, b) => FLEET_AREAS.indexOf(a.area) - FLEET_AREAS.indexOf(b.area))
      .map((w) => ({
        ...w,
        lastSuccess: latest(
          successes.filter((s) => s.area === w.area).map((s) => s.lastSuccess?.toISOString() ?? null),
        ),
        link: areaLink(publicUrl, w.area, r.organisation_id),
      }));
    const mail = templates.weeklyCustomer({ organisation: r.organisation, from, to, timeZone, areas });
    return renderMail(addressOf(r), mail, language);
  });
}

/**
 * The licence warnings of every organisation the user acts for: one at 14 days before the end, one
 * at 3, one when it has ended; a stage passed while no process ran is skipped for the next one. The
 * period names the licence's end, so a licence renewed and ending again is warned of again.
 */
async function licenceWarnings(ctx: AppContext, r: Recipient, now: Date): Promise<number> {
  const timeZone = zoneOf(r);
  const endings = await licencesEnding(
    ctx.db,
    r.organisation_id,
    new Date(now.getTime() - LICENCE_ENDED_GRACE),
    new Date(now.getTime() + LICENCE_STAGES[0] * DAY),
  );
  let sent = 0;
  for (const org of endings) {
    const until = new Date(org.license_valid_until);
    const stage = licenceStage(now, until);
    if (stage === undefined) continue;
    const period = `${org.id}/${until.toISOString()}/${stage}`;
    const done = await sendOnce(ctx, { userId: r.id, kind: 'licenseExpiry', period }, async () => {
      const language = mailLanguageOf(r.settings);
      const daysLeft = stage === 0 ? 0 : Math.ceil((until.getTime() - now.getTime()) / DAY);
      const mail = templatesFor(language).licenceExpiry({
        organisation: org.name,
        validUntil: until,
        daysLeft,
        timeZone,
        link: licenceLink(ctx.config.publicUrl, org.id),
      });
      return renderMail(addressOf(r), mail, language);
    });
    if (done) sent++;
  }
  return sent;
}

/**
 * Sends every scheduled mail due at `ctx.now()` that no process has sent yet, user by user; a user
 * whose mails fail to compose is logged and the others still get theirs. How many mails were sent.
 */
export async function sendDueNotifications(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  let sent = 0;
  for (const recipient of await listRecipients(ctx.db)) {
    const settings = effectiveSettings(recipient.settings);
    try {
      if (settings.dailySummary && (await dailySummary(ctx, recipient, now))) sent++;
      if (settings.weeklyReport && (await weeklyReport(ctx, recipient, now))) sent++;
      if (settings.licenseExpiry) sent += await licenceWarnings(ctx, recipient, now);
    } catch (err) {
      ctx.log.warn({ err, userId: recipient.id }, 'scheduled notifications failed');
    }
  }
  return sent;
}
