import {
  Box,
  Button,
  Checkbox,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../offline/online';
import { StatusAlert } from './form-field';
import { type ListState, PAGE_SIZES, useDebounced } from './list-state';
import { type Breakpoint, useBelow } from './use-below';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The server sorts by this column's key. */
  sortable?: boolean;
  align?: 'start' | 'end';
  /** Hidden below this breakpoint to keep narrow screens readable (its export keeps it). */
  hideBelow?: Breakpoint;
  /**
   * Below `hideBelow` its value is not lost but stands, with its header, under the row's first cell:
   * a phone's row keeps its dates, sizes and senders.
   */
  stack?: boolean;
}

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
}

/** Stands in for the rows of a long page that are not rendered, so the scroll bar stays true. */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr data-spacer="" style={{ height }}>
      <td colSpan={span} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}

/** Rows rendered at once in a long page; the rest are spacers (fixed row height). */
export const VIRTUAL_THRESHOLD = 100;
const ROW_HEIGHT = 41;
const VIEWPORT_ROWS = 16;

/**
 * A server-side table: the server pages, sorts and filters; this shows one page with loading,
 * empty and error states, keyboard-operable sorting and paging, optional row selection, and only the
 * visible rows of a long page.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const online = useOnline();
  const { columns, rows, total, state, onStateChange, selection } = props;
  const [search, setSearch] = useState(state.search ?? '');
  const settled = useDebounced(search);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search text changes the query.
  useEffect(() => {
    if ((state.search ?? '') !== settled) onStateChange({ search: settled });
  }, [settled]);

  const virtual = (rows?.length ?? 0) > VIRTUAL_THRESHOLD;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const window = useMemo(() => {
    const count = rows?.length ?? 0;
    if (!virtual) return { start: 0, end: count };
    const start = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - 4);
    return { start, end: Math.min(count, start + VIEWPORT_ROWS + 8) };
  }, [rows, virtual, scrollTop]);

  const pages = Math.max(1, Math.ceil(total / state.pageSize));
  const from = total === 0 ? 0 : (state.page - 1) * state.pageSize + 1;
  const to = Math.min(total, state.page * state.pageSize);
  const pageKeys = (rows ?? []).map(props.rowKey);
  const allSelected = selection && pageKeys.length > 0 && pageKeys.every((k) => selection.selected.has(k));
  const someSelected = selection && pageKeys.some((k) => selection.selected.has(k));

  const sortBy = (key: string) =>
    onStateChange({ sort: key, order: state.sort === key && state.order !== 'desc' ? 'desc' : 'asc' });
  const hide = (c: Column<T>) => (c.hideBelow ? { hideBelow: c.hideBelow } : {});
  const below = useBelow();
  const stacked = columns.filter((c) => c.stack && c.hideBelow && below.has(c.hideBelow));

  return (
    <Stack gap="3">
      {props.searchPlaceholder || props.toolbar ? (
        <Stack direction={{ base: 'column', md: 'row' }} gap="3" justify="space-between" align={{ md: 'center' }}>
          {props.searchPlaceholder ? (
            <Input
              type="search"
              maxW={{ md: 'xs' }}
              value={search}
              aria-label={props.searchPlaceholder}
              placeholder={props.searchPlaceholder}
              maxLength={200}
              onChange={(e) => setSearch(e.target.value)}
            />
          ) : (
            <span />
          )}
          {props.toolbar ? (
            <HStack gap="2" wrap="wrap">
              {props.toolbar}
            </HStack>
          ) : null}
        </Stack>
      ) : null}

      {props.error && props.renderError?.(props.error) ? (
        props.renderError(props.error)
      ) : props.error ? (
        <Stack gap="2" align="flex-start">
          <StatusAlert status="error">{props.errorText ?? t('table:loadFailed')}</StatusAlert>
          {props.onRetry ? (
            <Button size="sm" variant="outline" onClick={props.onRetry}>
              {t('common:retry')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <Box
          ref={scroller}
          overflow="auto"
          maxH={virtual ? `${ROW_HEIGHT * VIEWPORT_ROWS + 48}px` : undefined}
          onScroll={virtual ? (e) => setScrollTop(e.currentTarget.scrollTop) : undefined}
          borderWidth="1px"
          borderRadius="md"
          aria-busy={props.loading ? true : undefined}
          // Scrollable sideways on narrow screens: reachable by keyboard.
          tabIndex={0}
          role="region"
          aria-label={props.label}
        >
          <Table.Root size="sm" aria-label={props.label} aria-rowcount={total + 1} interactive={!!props.onRowClick}>
            <Table.Header position="sticky" top="0" bg="bg" zIndex="1">
              <Table.Row>
                {selection ? (
                  <Table.ColumnHeader width="10">
                    <Checkbox.Root
                      size="sm"
                      checked={allSelected ? true : someSelected ? 'indeterminate' : false}
                      onCheckedChange={(e) => {
                        const next = new Set(selection.selected);
                        for (const k of pageKeys) e.checked === true ? next.add(k) : next.delete(k);
                        selection.onChange(next);
                      }}
                    >
                      <Checkbox.HiddenInput aria-label={t('table:selectPage')} />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.ColumnHeader>
                ) : null}
                {columns.map((c) => (
                  <Table.ColumnHeader
                    key={c.key}
                    textAlign={c.align === 'end' ? 'end' : 'start'}
                    aria-sort={state.sort === c.key ? (state.order === 'desc' ? 'descending' : 'ascending') : undefined}
                    {...hide(c)}
                  >
                    {c.sortable ? (
                      <Button
                        variant="ghost"
                        size="xs"
                        px="1"
                        fontWeight="semibold"
                        onClick={() => sortBy(c.key)}
                        aria-label={t('table:sortBy', { column: c.header })}
                      >
                        {c.header}
                        <span aria-hidden="true">
                          {state.sort === c.key ? (state.order === 'desc' ? ' ▼' : ' ▲') : ' ↕'}
                        </span>
                      </Button>
                    ) : (
                      c.header
                    )}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {!rows && !online ? (
                <Table.Row>
                  <Table.Cell colSpan={columns.length + (selection ? 1 : 0)}>
                    <Text color="fg.muted" py="6" textAlign="center" data-testid="table-offline">
                      {t('offline:notSaved')}
                    </Text>
                  </Table.Cell>
                </Table.Row>
              ) : null}
              {!rows && online && props.loading
                ? Array.from({ length: 5 }, (_, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
                    <Table.Row key={i}>
                      <Table.Cell colSpan={columns.length + (selection ? 1 : 0)}>
                        <Skeleton height="5" />
                      </Table.Cell>
                    </Table.Row>
                  ))
                : null}
              {rows && rows.length === 0 ? (
                <Table.Row>
                  <Table.Cell colSpan={columns.length + (selection ? 1 : 0)}>
                    <Text color="fg.muted" py="6" textAlign="center" data-testid="table-empty">
                      {props.emptyText}
                    </Text>
                  </Table.Cell>
                </Table.Row>
              ) : null}
              {virtual && window.start > 0 ? (
                <Spacer height={window.start * ROW_HEIGHT} span={columns.length + (selection ? 1 : 0)} />
              ) : null}
              {(rows ?? []).slice(window.start, window.end).map((row, i) => {
                const key = props.rowKey(row);
                return (
                  <Table.Row
                    key={key}
                    h={virtual ? `${ROW_HEIGHT}px` : undefined}
                    aria-rowindex={(state.page - 1) * state.pageSize + window.start + i + 2}
                    cursor={props.onRowClick ? 'pointer' : undefined}
                    onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}
                    data-state={selection?.selected.has(key) ? 'selected' : undefined}
                  >
                    {selection ? (
                      <Table.Cell onClick={(e) => e.stopPropagation()}>
                        <Checkbox.Root
                          size="sm"
                          checked={selection.selected.has(key)}
                          onCheckedChange={(e) => {
                            const next = new Set(selection.selected);
                            e.checked === true ? next.add(key) : next.delete(key);
                            selection.onChange(next);
                          }}
                        >
                          <Checkbox.HiddenInput aria-label={selection.rowLabel(row)} />
                          <Checkbox.Control />
                        </Checkbox.Root>
                      </Table.Cell>
                    ) : null}
                    {columns.map((c, index) => (
                      <Table.Cell key={c.key} textAlign={c.align === 'end' ? 'end' : 'start'} {...hide(c)}>
                        {c.cell(row)}
                        {index === 0
                          ? stacked.map((s) => (
                              <Box key={s.key} fontSize="xs" color="fg.muted" mt="0.5" data-stacked={s.key}>
                                {s.header}: {s.cell(row)}
                              </Box>
                            ))
                          : null}
                      </Table.Cell>
                    ))}
                  </Table.Row>
                );
              })}
              {virtual && rows && window.end < rows.length ? (
                <Spacer height={(rows.length - window.end) * ROW_HEIGHT} span={columns.length + (selection ? 1 : 0)} />
              ) : null}
            </Table.Body>
          </Table.Root>
        </Box>
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
