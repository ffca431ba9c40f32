import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { type ListState, PAGE_SIZES } from '../components/ui/list-state';

/**
 * The state of a list (page, page size, sort, order, search and its filters) kept in the address's
 * search parameters, so that a reload, Back and a shared link open the list as it was. Values equal to
 * the list's defaults are left out of the address. Typing a search or changing a filter replaces the
 * address entry rather than adding one, so Back leaves the page instead of stepping through keystrokes.
 */

/** What a list keeps in the address. */
export interface ListSearch {
  page?: number;
  pageSize?: number;
  sort?: string;
  order?: 'asc' | 'desc';
  search?: string;
}

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

function positive(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : undefined;
}

/** The list parameters of an address, each checked: a wrong or missing one is left out. */
export function parseListSearch(raw: Raw, prefix = ''): ListSearch {
  const page = positive(raw[`${prefix}page`]);
  const size = positive(raw[`${prefix}pageSize`]);
  const sort = text(raw[`${prefix}sort`]);
  const order = raw[`${prefix}order`];
  const search = text(raw[`${prefix}search`]);
  return {
    ...(page ? { page } : {}),
    ...(size && (PAGE_SIZES as readonly number[]).includes(size) ? { pageSize: size } : {}),
    ...(sort && /^[A-Za-z0-9_.-]{1,64}$/.test(sort) ? { sort } : {}),
    ...(order === 'asc' || order === 'desc' ? { order } : {}),
    ...(search ? { search: search.slice(0, 500) } : {}),
  };
}

/** A filter's value in the address: one of its allowed values, or any text when none are listed. */
type AllowedValue<Allowed extends readonly string[]> = [Allowed[number]] extends [never] ? string : Allowed[number];

/**
 * A route's `validateSearch` for a list: the list's parameters checked, and each named filter kept as
 * text when it is one of its allowed values (or any text when no values are given). The filters'
 * types follow their values, so that a page reads `status` as the statuses its route admits.
 */
export function listSearchValidator<const Filters extends { readonly [name: string]: readonly string[] } = {}>(
  filters?: Filters,
) {
  return (raw: Raw): ListSearch & { [K in keyof Filters]?: AllowedValue<Filters[K]> } => {
    // Every known parameter is named, a wrong one as undefined: the router keeps unknown ones as they came.
    const kept: Record<string, string | undefined> = {};
    for (const [name, allowed] of Object.entries<readonly string[]>(filters ?? {})) {
      const value = text(raw[name]);
      const valid = value !== undefined && value !== '' && (allowed.length === 0 || allowed.includes(value));
      kept[name] = valid ? value.slice(0, 500) : undefined;
    }
    const list = parseListSearch(raw);
    return {
      page: list.page,
      pageSize: list.pageSize,
      sort: list.sort,
      order: list.order,
      search: list.search,
      ...kept,
    } as ListSearch & { [K in keyof Filters]?: AllowedValue<Filters[K]> };
  };
}

function useSearchWriter() {
  const navigate = useNavigate();
  return useCallback(
    (change: (previous: Raw) => Raw) =>
      void navigate({ to: '.', search: ((previous: Raw) => change(previous)) as never, replace: true }),
    [navigate],
  );
}

/** Without a value: the parameter is removed. */
function withValues(previous: Raw, values: Raw): Raw {
  const next: Raw = { ...previous };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '') delete next[name];
    else next[name] = value;
  }
  return next;
}

/**
 * Like `useListState`, with the state in the address. `prefix` names the parameters of a second list
 * on the same page. Any change but the page itself goes back to the first page.
 */
export function useUrlListState(initial: Partial<ListState> = {}, prefix = '') {
  const raw = useSearch({ strict: false }) as Raw;
  const write = useSearchWriter();
  // Compared as text: a new object each render with the same values is the same state.
  const defaultsText = JSON.stringify({ page: 1, pageSize: 25, ...initial });
  const parsedText = JSON.stringify(parseListSearch(raw, prefix));
  const state: ListState = useMemo(
    () => ({ ...(JSON.parse(defaultsText) as ListState), ...(JSON.parse(parsedText) as ListSearch) }),
    [defaultsText, parsedText],
  );
  const update = useCallback(
    (change: Partial<ListState>) =>
      write((previous) => {
        const defaults = JSON.parse(defaultsText) as ListState;
        const current = { ...defaults, ...parseListSearch(previous, prefix) };
        const next: ListState = { ...current, ...change };
        const filterChanged = (Object.keys(change) as (keyof ListState)[]).some(
          (k) => k !== 'page' && current[k] !== change[k],
        );
        if (change.page === undefined && filterChanged) next.page = 1;
        const differs = <K extends keyof ListState>(k: K) => (next[k] === defaults[k] ? undefined : next[k]);
        return withValues(previous, {
          [`${prefix}page`]: differs('page'),
          [`${prefix}pageSize`]: differs('pageSize'),
          [`${prefix}sort`]: differs('sort'),
          [`${prefix}order`]: differs('order'),
          [`${prefix}search`]: differs('search'),
        });
      }),
    [write, prefix, defaultsText],
  );
  return [state, update] as const;
}

/**
 * One filter of a list in the address (a status, a type, a folder path): its value, or `fallback` when
 * the address has none. Setting it goes back to the list's first page.
 */
export function useUrlFilter<T extends string>(name: string, fallback: T, prefix = '') {
  const raw = useSearch({ strict: false }) as Raw;
  const write = useSearchWriter();
  const value = (text(raw[name]) ?? fallback) as T;
  const set = useCallback(
    (next: T) =>
      write((previous) =>
        withValues(previous, { [name]: next === fallback ? undefined : next, [`${prefix}page`]: undefined }),
      ),
    [write, name, fallback, prefix],
  );
  return [value, set] as const;
}

/**
 * Clears several filters of a list at once (a "clear filters" button), and goes back to its first
 * page: one change of the address, as setting each filter in turn would lose all but the last.
 */
export function useClearUrlFilters(names: readonly string[], prefix = '') {
  const write = useSearchWriter();
  const key = names.join('\n');
  return useCallback(
    () =>
      write((previous) =>
        withValues(previous, {
          ...Object.fromEntries(key.split('\n').map((name) => [name, undefined])),
          [`${prefix}page`]: undefined,
        }),
      ),
    [write, key, prefix],
  );
}
