import type { Migration } from '../migrations.js';

/**
 * A tenant's default domain (contoso.onmicrosoft.com), the name its people know it by, shown in the
 * portal's header for the tenant the organisation works in: read from Microsoft Graph's organization
 * (its verified domains) by the connection test. Null: not read yet, or Graph would not answer it.
 */
export const migration: Migration = {
  id: 34,
  name: 'tenant default domain',
  sql: `
alter table tenants add column default_domain text;
`,
};
