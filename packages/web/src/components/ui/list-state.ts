import { useCallback, useEffect, useState } from 'react';

/** Paging, sorting and filtering of a server-side list, as the SDK's list queries take them. */
export interface ListState {
  page: number;
  pageSize: number;
  sort?: string;
  order?: 'asc' | 'desc';
  search?: string;
}

export const PAGE_SIZES = [10, 25, 50, 100, 500] as const;

export function useListState(initial: Partial<ListState> = {}) {
  const [state, setState] = useState<ListState>({ page: 1, pageSize: 25, ...initial });
  /** Any change but the page itself goes back to the first page. */
  const update = useCallback(
    (change: Partial<ListState>) =>
      setState((current) => ({
        ...current,
        ...change,
        page: change.page ?? (sameFilter(current, change) ? current.page : 1),
      })),
    [],
  );
  return [state, update] as const;
}

function sameFilter(current: ListState, change: Partial<ListState>) {
  return (Object.keys(change) as (keyof ListState)[]).every((k) => k === 'page' || current[k] === change[k]);
}

/** The list query of the state, without empty values. */
export function listQuery(state: ListState) {
  return {
    page: state.page,
    pageSize: state.pageSize,
    ...(state.sort ? { sort: state.sort, order: state.order ?? 'asc' } : {}),
    ...(state.search?.trim() ? { search: state.search.trim() } : {}),
  };
}

/** `value`, once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
