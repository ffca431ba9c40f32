import { getRouteApi, type RegisteredRouter, type RouteById, type RouteIds } from '@tanstack/react-router';
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

type RouteTree = RegisteredRouter['routeTree'];
type RouteId = RouteIds<RouteTree>;
/** A route's search as its `validateSearch` (and its parents') gives it. */
type SearchOf<R extends RouteId> = RouteById<RouteTree, R>['types']['fullSearchSchema'];

/** The routes whose search keeps a list's state, and the filters `F` beside it. */
export type ListRoute<F extends string = never> = {
  [R in RouteId]: keyof ListSearch | F extends keyof SearchOf<R> ? R : never;
}[RouteId];

/** The filters of a list route: its other parameters whose values are text. */
type FilterName<R extends RouteId> = {
  [K in keyof SearchOf<R>]-?: K extends keyof ListSearch
    ? never
    : NonNullable<SearchOf<R>[K]> extends string
      ? K
      : never;
}[keyof SearchOf<R>] &
  string;

/**
 * A list route, one of its filters and the filter's value when the address has none: `T`, the
 * values the page works with, holds every value the route's `validateSearch` lets through.
 */
type FilterArgs<T extends string> = {
  [R in ListRoute]: {
    [K in FilterName<R>]: NonNullable<SearchOf<R>[K]> extends T ? [from: R, name: K, fallback: T] : never;
  }[FilterName<R>];
}[ListRoute];

/** Without a value ('' or none) a parameter leaves the address. */
function withValues<S extends object>(previous: S, values: Record<string, string | number | undefined>): S {
  const set = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, value === '' ? undefined : value]),
  );
  return { ...previous, ...set };
}

/**
 * Like `useListState`, with the state in the address of the route `from` (its id). Any change but
 * the page itself goes back to the first page.
 */
export function useUrlListState(from: ListRoute, initial: Partial<ListState> = {}) {
  const route = getRouteApi(from);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  // Compared as text: a new object each render with the same values is the same state.
  const defaultsText = JSON.stringify({ page: 1, pageSize: 25, ...initial });
  const parsedText = JSON.stringify(parseListSearch(search));
  const state: ListState = useMemo(
    () => ({ ...(JSON.parse(defaultsText) as ListState), ...(JSON.parse(parsedText) as ListSearch) }),
    [defaultsText, parsedText],
  );
  const update = useCallback(
    (change: Partial<ListState>) =>
      void navigate({
        search: (previous) => {
          const defaults = JSON.parse(defaultsText) as ListState;
          const current = { ...defaults, ...parseListSearch(previous) };
          const next: ListState = { ...current, ...change };
          const filterChanged = (Object.keys(change) as (keyof ListState)[]).some(
            (k) => k !== 'page' && current[k] !== change[k],
          );
          if (change.page === undefined && filterChanged) next.page = 1;
          const differs = <K extends keyof ListState>(k: K) => (next[k] === defaults[k] ? undefined : next[k]);
          return withValues(previous, {
            page: differs('page'),
            pageSize: differs('pageSize'),
            sort: differs('sort'),
            order: differs('order'),
            search: differs('search'),
          });
        },
        replace: true,
      }),
    [navigate, defaultsText],
  );
  return [state, update] as const;
}

/**
 * One filter of a list in the address of the route `from` (a status, a type, a folder path): its
 * value, or `fallback` when the address has none. Setting it goes back to the list's first page.
 */
export function useUrlFilter<T extends string>(...args: FilterArgs<T>): readonly [T, (next: T) => void];
// The route's validateSearch lets only the filter's values through, and FilterArgs holds them in T.
export function useUrlFilter(from: ListRoute, name: string, fallback: string) {
  const route = getRouteApi(from);
  const search: Raw = route.useSearch();
  const navigate = route.useNavigate();
  const value = text(search[name]) ?? fallback;
  const set = useCallback(
    (next: string) =>
      void navigate({
        search: (previous) => withValues(previous, { [name]: next === fallback ? undefined : next, page: undefined }),
        replace: true,
      }),
    [navigate, name, fallback],
  );
  return [value, set] as const;
}

/**
 * Clears several filters of a list at once (a "clear filters" button), and goes back to its first
 * page: one change of the address, as setting each filter in turn would lose all but the last.
 */
export function useClearUrlFilters<R extends ListRoute>(from: R, names: readonly FilterName<R>[]) {
  const id: ListRoute = from;
  const navigate = getRouteApi(id).useNavigate();
  const key = names.join('\n');
  return useCallback(
    () =>
      void navigate({
        search: (previous) =>
          withValues(previous, {
            ...Object.fromEntries(key.split('\n').map((name) => [name, undefined])),
            page: undefined,
          }),
        replace: true,
      }),
    [navigate, key],
  );
}
