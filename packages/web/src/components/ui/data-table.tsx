import { Button, HStack, IconButton, Input, NativeSelect, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../offline/online';
import { StatusAlert } from './form-field';
import { type ListState, PAGE_SIZES, useDebounced } from './list-state';
import type { RowActions } from './row-actions';
import { type Column, TableView } from './table-view';

export type { Column } from './table-view';
export { VIRTUAL_THRESHOLD } from './table-view';

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  total: number;
  rowKey: (row: T) => string;
  state: ListState;
  onStateChange: (change: Partial<ListState>) => void;
  loading?: boolean;
  error?: unknown;
  /** What a failed load says; "The list could not be loaded." by default. */
  errorText?: string;
  /**
   * Shows a failed load in full instead (the cause, details, its own retry); where it gives nothing,
   * errorText and a retry are shown.
   */
  renderError?: (error: unknown) => ReactNode;
  onRetry?: () => void;
  emptyText: string;
  /** Filters and actions above the table (export, filters). */
  toolbar?: ReactNode;
  /** Search field shown when given: its placeholder. */
  searchPlaceholder?: string;
  selection?: { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void; rowLabel: (row: T) => string };
  onRowClick?: (row: T) => void;
  /** Each row's actions: side by side where there is room, else behind one menu. */
  rowActions?: RowActions<T>;
}

/** A row spanning the whole table: what stands where there is no row. */
function WholeRow({ span, children }: { span: number; children: ReactNode }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={span}>{children}</Table.Cell>
    </Table.Row>
  );
}

/**
 * A server-side table: the server pages, sorts and filters; this shows one page (TableView, on TanStack
 * Table) with loading, empty, offline and error states, a search field, and keyboard-operable paging.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const online = useOnline();
  const { rows, total, state, onStateChange } = props;
  const [search, setSearch] = useState(state.search ?? '');
  const settled = useDebounced(search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search text changes the query.
  useEffect(() => {
    if ((state.search ?? '') !== settled) onStateChange({ search: settled });
  }, [settled]);

  const pages = Math.max(1, Math.ceil(total / state.pageSize));
  const from = total === 0 ? 0 : (state.page - 1) * state.pageSize + 1;
  const to = Math.min(total, state.page * state.pageSize);
  const selection = props.selection;
  const span = props.columns.length + (selection ? 1 : 0) + (props.rowActions ? 1 : 0);

  const placeholder =
    !rows && !online ? (
      <WholeRow span={span}>
        <Text color="fg.muted" py="6" textAlign="center" data-testid="table-offline">
          {t('offline:notSaved')}
        </Text>
      </WholeRow>
    ) : !rows && props.loading ? (
      Array.from({ length: 5 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <WholeRow key={i} span={span}>
          <Skeleton height="5" />
        </WholeRow>
      ))
    ) : rows && rows.length === 0 ? (
      <WholeRow span={span}>
        <Text color="fg.muted" py="6" textAlign="center" data-testid="table-empty">
          {props.emptyText}
        </Text>
      </WholeRow>
    ) : null;

  const searchField = props.searchPlaceholder ? (
    <Input
      type="search"
      maxW={{ md: 'xs' }}
      value={search}
      aria-label={props.searchPlaceholder}
      placeholder={props.searchPlaceholder}
      maxLength={200}
      onChange={(e) => setSearch(e.target.value)}
    />
  ) : undefined;

  return (
    <Stack gap="3">
      {props.error && props.renderError?.(props.error) ? (
        props.renderError(props.error)
      ) : props.error ? (
        <Stack gap="2" align="flex-start">
          {searchField}
          <StatusAlert status="error">{props.errorText ?? t('table:loadFailed')}</StatusAlert>
          {props.onRetry ? (
            <Button size="sm" variant="outline" onClick={props.onRetry}>
              {t('common:retry')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <TableView
          label={props.label}
          columns={props.columns}
          rows={rows}
          rowKey={props.rowKey}
          serverSort={{
            sort: state.sort,
            order: state.order,
            onChange: (sort, order) => onStateChange({ sort, order }),
          }}
          {...(selection ? { selection } : {})}
          {...(props.onRowClick ? { onRowClick: props.onRowClick } : {})}
          {...(props.rowActions ? { rowActions: props.rowActions } : {})}
          placeholder={placeholder}
          rowCount={total}
          firstRowIndex={(state.page - 1) * state.pageSize}
          busy={!!props.loading}
          search={searchField}
          toolbar={props.toolbar}
        />
      )}

      <Stack
        direction={{ base: 'column', sm: 'row' }}
        justify="space-between"
        align={{ sm: 'center' }}
        gap="2"
        aria-label={t('table:paging')}
        role="group"
      >
        <Text fontSize="sm" color="fg.muted" aria-live="polite">
          {t('table:range', { from: from.toLocaleString(), to: to.toLocaleString(), total: total.toLocaleString() })}
          {selection && selection.selected.size > 0
            ? ` · ${t('table:selected', { count: selection.selected.size })}`
            : ''}
        </Text>
        <HStack gap="2">
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field
              aria-label={t('table:pageSize')}
              value={state.pageSize}
              onChange={(e) => onStateChange({ pageSize: Number(e.target.value) })}
            >
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {t('table:perPage', { count: n })}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <IconButton
            size="sm"
            variant="outline"
            aria-label={t('table:previous')}
            disabled={state.page <= 1}
            onClick={() => onStateChange({ page: state.page - 1 })}
          >
            ‹
          </IconButton>
          <Text fontSize="sm" minW="16" textAlign="center">
            {t('table:pageOf', { page: state.page, pages })}
          </Text>
          <IconButton
            size="sm"
            variant="outline"
            aria-label={t('table:next')}
            disabled={state.page >= pages}
            onClick={() => onStateChange({ page: state.page + 1 })}
          >
            ›
          </IconButton>
        </HStack>
      </Stack>
    </Stack>
  );
}
