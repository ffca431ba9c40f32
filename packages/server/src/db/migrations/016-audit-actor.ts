import type { Migration } from '../migrations.js';

/** An account's own audit entries, newest first: the sign-in activity every user may read of themselves. */
export const migration: Migration = {
  id: 16,
  name: 'audit by actor',
  sql: `
create index audit_actor on audit_log(actor_user_id, seq);
`,
};
