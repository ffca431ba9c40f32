import type { EdiscoverySearch } from '@compliance-portal/sdk';
import { type ListSearch, listSearchValidator } from '../../shared/url-state';

/** What eDiscovery searches: archived mail, Teams messages, calendar events, in any mix. */
export type Kind = 'mail' | 'teams' | 'events';
export const KINDS: readonly Kind[] = ['mail', 'teams', 'events'];
/** What a saved search that names no kinds searches (the API's default: events only when named). */
export const UNNAMED_KINDS: readonly Kind[] = ['mail', 'teams'];

/** The results list when the address says nothing of it: 25 hits a page. */
export const EDISCOVERY_LIST = { pageSize: 25 } as const;

/**
 * The search the address holds. A search made with the form is kept as its criteria: `q` (the query),
 * `kinds` (always written for a search made, so that an empty query is still a search), `mailbox`,
 * `team`, and `from` and `to` as the dates typed. An opened case is kept as `case`, its id: its own
 * saved search is the one shown.
 */
export interface EdiscoveryParams extends ListSearch {
  q?: string;
  kinds?: string;
  mailbox?: string;
  team?: string;
  from?: string;
  to?: string;
  case?: string;
}

/** The search parameters the form writes; all are removed when another search or a case is opened. */
export const CRITERIA_PARAMS = ['q', 'kinds', 'mailbox', 'team', 'from', 'to', 'case'] as const;

const list = listSearchValidator({ mailbox: [], team: [], case: [] });

/** The query as typed, up to the 1000 characters the field takes. */
function queryOf(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  return text ? text.slice(0, 1000) : undefined;
}

/** A date as the date field gives it (YYYY-MM-DD), and one that exists. */
function isDay(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    !Number.isNaN(new Date(`${value}T00:00:00`).getTime())
  );
}

/** The kinds of an address, in their usual order, or none when none of them is known. */
export function kindsOf(value: unknown): Kind[] | undefined {
  if (typeof value !== 'string') return undefined;
  const named = value.split(',');
  const kinds = KINDS.filter((k) => named.includes(k));
  return kinds.length ? kinds : undefined;
}

/** The route's `validateSearch`: each parameter checked, a wrong one left out. */
export function validateEdiscoverySearch(raw: Record<string, unknown>): EdiscoveryParams {
  const kinds = kindsOf(raw.kinds);
  const q = queryOf(raw.q);
  return {
    ...list(raw),
    ...(q ? { q } : {}),
    ...(kinds ? { kinds: kinds.join(',') } : {}),
    ...(isDay(raw.from) ? { from: raw.from } : {}),
    ...(isDay(raw.to) ? { to: raw.to } : {}),
  };
}

/** The start of a day typed in the date field, in the reader's time zone, as the API takes it. */
const startOf = (day: string) => new Date(`${day}T00:00:00`).toISOString();

/** The search the form's criteria describe. */
export function criteriaSearch(criteria: {
  query: string;
  kinds: readonly Kind[];
  mailbox: string;
  team: string;
  from: string;
  to: string;
}): EdiscoverySearch {
  return {
    query: criteria.query.trim(),
    kinds: [...criteria.kinds],
    ...(criteria.mailbox ? { mailboxes: [criteria.mailbox] } : {}),
    ...(criteria.team ? { teams: [criteria.team] } : {}),
    ...(criteria.from ? { from: startOf(criteria.from) } : {}),
    ...(criteria.to ? { to: startOf(criteria.to) } : {}),
  };
}

/** The search made with the form that the address holds, or null (none made, or a case is open). */
export function paramsSearch(params: EdiscoveryParams): EdiscoverySearch | null {
  const kinds = kindsOf(params.kinds);
  if (params.case || !kinds) return null;
  return criteriaSearch({
    query: params.q ?? '',
    kinds,
    mailbox: params.mailbox ?? '',
    team: params.team ?? '',
    from: params.from ?? '',
    to: params.to ?? '',
  });
}

/** The results page of the address, as the list shows it. */
export function paramsPage(params: EdiscoveryParams) {
  return { page: params.page ?? 1, pageSize: params.pageSize ?? EDISCOVERY_LIST.pageSize };
}
