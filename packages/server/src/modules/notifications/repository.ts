import type { FleetArea } from '@compliance-portal/sdk';
import type { Queryable } from '../../db/database.js';
import type { StoredNotificationSettings } from '../../jobs/notify.js';
import { AREA_OF_JOB } from '../fleet/repository.js';

/** The scheduled notifications, as `notification_sends.kind` records them. */
export type ScheduledKind = 'dailySummary' | 'weeklyReport' | 'licenseExpiry';

/** A user who may receive scheduled mails, with what the mails need of their organisation. */
export interface Recipient {
  id: string;
  email: string;
  role: 'admin' | 'partner' | 'operator';
  organisation_id: string;
  organisation: string;
  organisation_kind: 'customer' | 'partner' | 'operator';
  time_zone: string;
  settings: StoredNotificationSettings;
}

/**
 * The users scheduled mails may go to: neither deactivated nor still invited (an invitation not
 * accepted is no one's mailbox yet).
 */
export async function listRecipients(db: Queryable): Promise<Recipient[]> {
  return db.query<Recipient>(
    `select u.id, u.email, u.role, u.organisation_id, o.name as organisation, o.kind as organisation_kind,
            o.time_zone, n.settings
       from users u join organisations o on o.id = u.organisation_id
       left join notification_settings n on n.user_id = u.id
      where u.deactivated_at is null and (u.invited_at is null or u.invitation_accepted_at is not null)
      order by u.id`,
  );
}

/**
 * Claims the mail of a user, kind and period: true for the one caller that inserted the row, false
 * when it was claimed before (by this process earlier, or by another one).
 */
export async function claimSend(
  db: Queryable,
  key: { userId: string; kind: ScheduledKind; period: string },
  at: Date,
): Promise<boolean> {
  const rows = await db.query(
    `insert into notification_sends (user_id, kind, period, claimed_at) values ($1, $2, $3, $4)
     on conflict do nothing returning user_id`,
    [key.userId, key.kind, key.period, at],
  );
  return rows.length === 1;
}

/** Records what became of a claim: sent, or nothing to send. */
export async function settleSend(
  db: Queryable,
  key: { userId: string; kind: ScheduledKind; period: string },
  outcome: 'sent' | 'empty',
  at: Date,
): Promise<void> {
  await db.query(
    `update notification_sends set outcome = $4, sent_at = case when $4 = 'sent' then $5::timestamptz end
      where user_id = $1 and kind = $2 and period = $3`,
    [key.userId, key.kind, key.period, outcome, at],
  );
}

/** Gives a claim up (the mail server refused the mail), so that a later pass tries it again. */
export async function releaseSend(
  db: Queryable,
  key: { userId: string; kind: ScheduledKind; period: string },
): Promise<void> {
  await db.query(
    `delete from notification_sends where user_id = $1 and kind = $2 and period = $3 and outcome = 'claimed'`,
    [key.userId, key.kind, key.period],
  );
}

/** A run of the daily summary: failed, or finished with items not processed. */
export interface ProblemRunRow {
  organisation: string;
  tenant: string;
  job: string;
  type: string;
  run_id: string;
  status: 'failed' | 'finished';
  warnings: number;
  message: string | null;
  finished: Date;
}

/**
 * The runs of every organisation a user of `organisationId` acts for (it, and its clients when it is
 * a partner) that ended in [from, to) failed or with warnings, by organisation, tenant and end.
 */
export async function problemRuns(
  db: Queryable,
  organisationId: string,
  from: Date,
  to: Date,
): Promise<ProblemRunRow[]> {
  return db.query<ProblemRunRow>(
    `select o.name as organisation, t.tenant_name as tenant, j.name as job, j.type, r.run_id, r.status,
            r.warnings, r.message, r.finished
       from job_runs r join jobs j on j.job_id = r.job_id
       join tenants t on t.tenant_id = r.tenant_id
       join organisations o on o.id = t.organisation_id
      where (o.id = $1 or o.partner_id = $1) and r.finished >= $2 and r.finished < $3
        and (r.status = 'failed' or (r.status = 'finished' and r.warnings > 0))
      order by lower(o.name), o.id, lower(t.tenant_name), t.tenant_id, r.finished, r.run_id`,
    [organisationId, from, to],
  );
}

/** An organisation a user acts for whose licence has an end. */
export interface LicenceRow {
  id: string;
  name: string;
  license_valid_until: Date;
}

/**
 * The organisations a user of `organisationId` acts for (it, and its clients when it is a partner)
 * whose licence ends in [from, to).
 */
export async function licencesEnding(
  db: Queryable,
  organisationId: string,
  from: Date,
  to: Date,
): Promise<LicenceRow[]> {
  return db.query<LicenceRow>(
    `select id, name, license_valid_until from organisations
      where (id = $1 or partner_id = $1) and license_valid_until >= $2 and license_valid_until < $3
      order by license_valid_until, id`,
    [organisationId, from, to],
  );
}

/** An area's week for a customer's weekly report. */
export interface AreaWeekRow {
  area: FleetArea;
  runs: number;
  failed: number;
  storedBytes: number;
}

/**
 * Per area (the fleet's five) of an organisation's tenants that has a job: the runs that ended in
 * [from, to), those that failed, and the bytes stored now (the usage totals: backups by their job's
 * area, archived mail and Teams messages and chats by their kind).
 */
export async function areaWeeks(db: Queryable, organisationId: string, from: Date, to: Date): Promise<AreaWeekRow[]> {
  const rows = await db.query<{ area: FleetArea; runs: number; failed: number; stored: number | string }>(
    `with area_jobs as (
       select j.job_id, j.tenant_id, ${AREA_OF_JOB} as area
         from jobs j join tenants t on t.tenant_id = j.tenant_id
        where t.organisation_id = $1),
     runs as (
       select a.area, count(*)::int as runs, count(*) filter (where r.status = 'failed')::int as failed
         from job_runs r join area_jobs a on a.job_id = r.job_id
        where r.status in ('finished', 'failed') and r.finished >= $2 and r.finished < $3
        group by a.area),
     stored as (
       select a.area, sum(u.bytes) as bytes from backup_usage u join area_jobs a on a.job_id = u.job_id group by a.area
       union all
       select case when u.kind = 'mail' then 'mailArchive' else 'teamsArchive' end, sum(u.bytes)
         from archive_usage u join tenants t on t.tenant_id = u.tenant_id
        where t.organisation_id = $1 group by 1)
     select a.area, coalesce(r.runs, 0) as runs, coalesce(r.failed, 0) as failed,
            coalesce((select sum(s.bytes) from stored s where s.area = a.area), 0)::bigint as stored
       from (select distinct area from area_jobs where area is not null) a
       left join runs r on r.area = a.area`,
    [organisationId, from, to],
  );
  return rows.map((r) => ({
    area: r.area,
    runs: Number(r.runs),
    failed: Number(r.failed),
    storedBytes: Number(r.stored),
  }));
}

/** The ids of an organisation's tenants. */
export async function organisationTenantIds(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>('select tenant_id from tenants where organisation_id = $1', [
    organisationId,
  ]);
  return rows.map((r) => r.tenant_id);
}
