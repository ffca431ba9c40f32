import type { Migration } from '../migrations.js';

/**
 * The scheduled notifications sent (daily summary, weekly report, licence warnings): one row per user,
 * kind and period, claimed before the mail goes out, so that a restart or a second server process
 * never sends the same one twice (the primary key decides between processes). `outcome` says what
 * became of the claim: `claimed` while the mail is on its way (and for good when the process died
 * before it was sent), `sent`, or `empty` (nothing to tell: a day without failures).
 */
export const migration: Migration = {
  id: 36,
  name: 'notification sends',
  sql: `
create table notification_sends (
  user_id text not null references users(id) on delete cascade,
  kind text not null check (kind in ('dailySummary', 'weeklyReport', 'licenseExpiry')),
  period text not null,
  claimed_at timestamptz not null,
  outcome text not null default 'claimed' check (outcome in ('claimed', 'sent', 'empty')),
  sent_at timestamptz,
  primary key (user_id, kind, period)
);
`,
};
