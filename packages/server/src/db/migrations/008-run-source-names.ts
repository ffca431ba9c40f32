import type { Migration } from '../migrations.js';

/**
 * A run's accounts keep the name they are shown with (filled from discovery when the report is first
 * read), so a report of 100,000 accounts sorts and pages by name on an index.
 */
export const migration: Migration = {
  id: 8,
  name: 'run source names',
  sql: `
alter table job_run_sources add column display_name text;
create index job_run_sources_name on job_run_sources(run_id, lower(display_name), source_id);
create index job_run_sources_unnamed on job_run_sources(run_id) where display_name is null;
`,
};
