import type { Migration } from '../migrations.js';

/**
 * User administration and the user's own sessions. A user invited by an administrator (`invited_at`)
 * stays invited until they choose a password through the invitation (`invitation_accepted_at`); a
 * deactivated user (`deactivated_at`, by whom) cannot sign in; `last_sign_in_at` is the last completed
 * sign-in. Invitation links are one-time codes of their own purpose. A session (a token family)
 * records the browser's user agent at sign-in and when it was last used (`last_seen_at`).
 *
 * Existing rows: a user whose creation the audit log records (`user.create`, or a partner's new
 * client's administrator) was invited then, and accepted once a password reset or a sign-in of theirs
 * is recorded; the last sign-in is read from the audit log's successful sign-ins.
 */
export const migration: Migration = {
  id: 29,
  name: 'user administration and sessions',
  sql: `
alter table users add column invited_at timestamptz;
alter table users add column invitation_accepted_at timestamptz;
alter table users add column deactivated_at timestamptz;
alter table users add column deactivated_by text;
alter table users add column last_sign_in_at timestamptz;
alter table sessions add column user_agent text;
alter table sessions add column last_seen_at timestamptz;
alter table one_time_codes drop constraint one_time_codes_purpose_check;
alter table one_time_codes add constraint one_time_codes_purpose_check check (purpose in ('reset', 'confirm', 'invite'));
update users u set invited_at = a.at
  from audit_log a
 where a.action = 'user.create' and a.outcome = 'success' and a.target = u.id;
update users u set invited_at = a.at
  from audit_log a
 where u.invited_at is null and a.action = 'partner.client.create' and a.outcome = 'success'
   and a.organisation_id = u.organisation_id and lower(a.details->>'adminEmail') = u.email;
update users u set last_sign_in_at = (
  select max(a.at) from audit_log a
   where a.actor_user_id = u.id and a.outcome = 'success'
     and a.action in ('auth.2fa.verify', 'auth.2fa.setup', 'auth.2fa.recovery', 'auth.login', 'auth.microsoft'));
update users u set invitation_accepted_at = coalesce(
  (select min(a.at) from audit_log a
    where a.actor_user_id = u.id and a.outcome = 'success' and a.at >= u.invited_at
      and a.action in ('auth.password.reset', 'auth.2fa.verify', 'auth.2fa.setup', 'auth.2fa.recovery', 'auth.login', 'auth.microsoft')),
  (select min(s.created_at) from sessions s where s.user_id = u.id and s.kind <> 'signin'))
 where u.invited_at is not null;
`,
};
