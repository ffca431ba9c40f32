import type { Migration } from '../migrations.js';

/**
 * eDiscovery custodians and managers. A case names its custodians (`custodians`: mailboxes, teams and
 * the accounts whose Teams chats it covers); a legal hold keeps every item of those custodians that
 * the case's search finds, whoever placed it, and only eDiscovery managers (`users.ediscovery_manager`)
 * place and release holds.
 *
 * A case not on hold takes its search's mailboxes and teams as custodians. A hold placed before keeps
 * what it held (its legal_hold_items stay) and its frozen scope becomes its custodians: the mailboxes
 * it searched (for mail), the teams it named or, when it named none, every team the tenant has
 * archived or discovered (for Teams), and the accounts of those mailboxes for their chats (when it
 * searched chats: the chats it held were those of these accounts). Each covers at least what the hold
 * kept of items archived later before.
 */
export const migration: Migration = {
  id: 25,
  name: 'ediscovery custodians',
  sql: `
alter table users add column ediscovery_manager boolean not null default false;
alter table ediscovery_cases add column custodians jsonb not null default '{"mailboxes": [], "teams": [], "chats": []}';
update ediscovery_cases set custodians = jsonb_build_object(
    'mailboxes', coalesce(search->'mailboxes', '[]'::jsonb),
    'teams', coalesce(search->'teams', '[]'::jsonb),
    'chats', coalesce(search->'chats', '[]'::jsonb))
  where held_at is null;
update ediscovery_cases c set hold_scope = (c.hold_scope - 'chatSources') || jsonb_build_object(
    'mailSources', case when c.hold_scope->'kind' ? 'mail' then coalesce(c.hold_scope->'mailSources', '[]'::jsonb)
                        else '[]'::jsonb end,
    'teamSources', case when not c.hold_scope->'kind' ? 'teams' then '[]'::jsonb
                        when c.hold_scope ? 'teamSources' then c.hold_scope->'teamSources'
                        else (select coalesce(jsonb_agg(t.source order by t.source), '[]'::jsonb)
                                from (select source from archive_items where tenant_id = c.tenant_id and kind = 'teams'
                                      union
                                      select source_id from discovered_sources
                                       where tenant_id = c.tenant_id and application = 'teams') t) end,
    'chatAccounts', case when c.hold_scope->'kind' ? 'chat' and not c.hold_scope ? 'teamSources'
                         then coalesce(c.hold_scope->'mailSources', '[]'::jsonb)
                         else '[]'::jsonb end)
  where held_at is not null;
update ediscovery_cases set custodians = jsonb_build_object(
    'mailboxes', hold_scope->'mailSources',
    'teams', hold_scope->'teamSources',
    'chats', hold_scope->'chatAccounts')
  where held_at is not null;
`,
};
