import type { Migration } from '../migrations.js';

/**
 * Request counts of the rate-limited endpoints (sign-in and its kin), per endpoint and client, in the
 * database so that every API process counts the same requests: a client spread over several
 * processes gets no more tries than one.
 */
export const migration: Migration = {
  id: 20,
  name: 'rate limits',
  sql: `
create table rate_limits (
  key text primary key,
  window_start timestamptz not null,
  hits integer not null
);
create index rate_limits_window on rate_limits(window_start);
`,
};
