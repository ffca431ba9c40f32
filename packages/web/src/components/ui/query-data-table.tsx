import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps } from './data-table';

/** One page of a server-side list, as the SDK's list endpoints answer. */
interface ListPage<T> {
  items: T[];
  total: number;
}

export type QueryDataTableProps<T> = Omit<DataTableProps<T>, 'rows' | 'total' | 'loading' | 'error' | 'onRetry'> & {
  /** The query of the list's current page: its rows, total, loading and error states and retry. */
  query: Pick<UseQueryResult<ListPage<T>>, 'data' | 'isFetching' | 'error' | 'refetch'>;
};

/** A DataTable fed by a list query: the rows, total, loading, error and retry come from the query. */
export function QueryDataTable<T>({ query, ...props }: QueryDataTableProps<T>) {
  return (
    <DataTable
      {...props}
      rows={query.data?.items}
      total={query.data?.total ?? 0}
      loading={query.isFetching}
      error={query.error}
      onRetry={() => void query.refetch()}
    />
  );
}
