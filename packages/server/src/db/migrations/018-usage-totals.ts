import type { Migration } from '../migrations.js';

/**
 * What each backup source and each archived mailbox, team or chat holds (items and bytes), kept by
 * statement-level triggers on backup_items and archive_items, so the overview, read on every visit,
 * sums a few rows per source instead of every stored version and archived message of the tenant.
 *
 * Each trigger sees the rows its statement inserted or deleted (a transition table) and adds or
 * subtracts their totals in one statement per statement, however many rows the batch holds. The
 * data plane never changes an item's size, job, source, tenant or kind once stored (its updates set
 * names, paths, the latest flag and deletion marks), so inserts and deletes keep the totals exact.
 * Rows come in per job and source (a backup worker's own) or per tenant, kind and source (a
 * mailbox's), so concurrent batches of different workers update different rows.
 * A job's totals go with it (on delete cascade); an archive source's row stays at zero when its
 * items are removed, and readers skip such rows.
 */
export const migration: Migration = {
  id: 18,
  name: 'usage totals',
  sql: `
create table backup_usage (
  job_id text not null references jobs(job_id) on delete cascade,
  source_id text not null,
  items bigint not null,
  bytes bigint not null,
  primary key (job_id, source_id)
);
create table archive_usage (
  tenant_id text not null,
  kind text not null,
  source text not null,
  items bigint not null,
  bytes bigint not null,
  primary key (tenant_id, kind, source)
);
create function backup_usage_add() returns trigger language plpgsql as $$
begin
  insert into backup_usage (job_id, source_id, items, bytes)
    select job_id, source_id, count(*), coalesce(sum(size), 0) from new_rows group by job_id, source_id
  on conflict (job_id, source_id) do update
    set items = backup_usage.items + excluded.items, bytes = backup_usage.bytes + excluded.bytes;
  return null;
end
$$;
create function backup_usage_remove() returns trigger language plpgsql as $$
begin
  update backup_usage u set items = u.items - d.items, bytes = u.bytes - d.bytes
    from (select job_id, source_id, count(*) as items, coalesce(sum(size), 0) as bytes
            from old_rows group by job_id, source_id) d
   where u.job_id = d.job_id and u.source_id = d.source_id;
  return null;
end
$$;
create trigger backup_items_usage_insert after insert on backup_items
  referencing new table as new_rows for each statement execute function backup_usage_add();
create trigger backup_items_usage_delete after delete on backup_items
  referencing old table as old_rows for each statement execute function backup_usage_remove();
create function archive_usage_add() returns trigger language plpgsql as $$
begin
  insert into archive_usage (tenant_id, kind, source, items, bytes)
    select tenant_id, kind, source, count(*), coalesce(sum(size), 0) from new_rows group by tenant_id, kind, source
  on conflict (tenant_id, kind, source) do update
    set items = archive_usage.items + excluded.items, bytes = archive_usage.bytes + excluded.bytes;
  return null;
end
$$;
create function archive_usage_remove() returns trigger language plpgsql as $$
begin
  update archive_usage u set items = u.items - d.items, bytes = u.bytes - d.bytes
    from (select tenant_id, kind, source, count(*) as items, coalesce(sum(size), 0) as bytes
            from old_rows group by tenant_id, kind, source) d
   where u.tenant_id = d.tenant_id and u.kind = d.kind and u.source = d.source;
  return null;
end
$$;
create trigger archive_items_usage_insert after insert on archive_items
  referencing new table as new_rows for each statement execute function archive_usage_add();
create trigger archive_items_usage_delete after delete on archive_items
  referencing old table as old_rows for each statement execute function archive_usage_remove();
insert into backup_usage (job_id, source_id, items, bytes)
  select job_id, source_id, count(*), coalesce(sum(size), 0) from backup_items group by job_id, source_id;
insert into archive_usage (tenant_id, kind, source, items, bytes)
  select tenant_id, kind, source, count(*), coalesce(sum(size), 0) from archive_items group by tenant_id, kind, source;
`,
};
