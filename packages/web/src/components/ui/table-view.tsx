import { Box, Button, Checkbox, HStack, Menu, Portal, Stack, Table } from '@chakra-ui/react';
import {
  type ColumnDef,
  type ColumnSizingState,
  type ColumnVisibilityState,
  columnSizingFeature,
  columnVisibilityFeature,
  createSortedRowModel,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RowActions, RowActionsCell } from './row-actions';
import { type Breakpoint, useBelow } from './use-below';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Sortable: by the server (a DataTable's list state), or by this value where the table sorts itself. */
  sortable?: boolean;
  /** What the table sorts by where it sorts its rows itself (a number or a text). */
  sortValue?: (row: T) => number | string | null | undefined;
  align?: 'start' | 'end';
  /** Hidden below this breakpoint to keep narrow screens readable (its export keeps it). */
  hideBelow?: Breakpoint;
  /**
   * Below `hideBelow` its value is not lost but stands, with its header, under the row's first cell:
   * a phone's row keeps its dates, sizes and senders.
   */
  stack?: boolean;
}

/** The sort of a list whose server sorts it: the column key and direction, and what a click on a header asks for. */
interface ServerSort {
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  onChange: (sort: string, order: 'asc' | 'desc') => void;
}

export interface TableViewProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** The server's sort; without it the table sorts its rows itself by the columns' sortValue. */
  serverSort?: ServerSort;
  selection?: { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void; rowLabel: (row: T) => string };
  onRowClick?: (row: T) => void;
  /** The actions of each row: side by side where the table has room, else behind one menu button. */
  rowActions?: RowActions<T>;
  /** What stands in the body where there is no row: loading, offline, empty. */
  placeholder?: ReactNode;
  /** A page of a longer list: the list's length and the index of this page's first row (from 0). */
  rowCount?: number;
  firstRowIndex?: number;
  busy?: boolean;
  /** Controls shown above the table: a search field (start) and filters and exports (end). */
  search?: ReactNode;
  toolbar?: ReactNode;
  /** A "Columns" menu to show and hide columns (where three or more can hide); off for a short card's table. */
  chooseColumns?: boolean;
}

/** Rows rendered at once in a long page are those in view and a few more; below this count all are. */
export const VIRTUAL_THRESHOLD = 100;
const ROW_HEIGHT = 41;
const VIEWPORT_ROWS = 16;
/** A column's least width when it is resized, in px. */
const MIN_WIDTH = 48;
const ACTIONS = '_actions';

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  columnVisibilityFeature,
  columnSizingFeature,
  rowSelectionFeature,
});

interface Boxed<T> {
  row: T;
}

/** Values compared as numbers where both are, else as texts in the reader's order; empty ones last. */
function compareValues(a: number | string | null | undefined, b: number | string | null | undefined): number {
  if (a == null || a === '') return b == null || b === '' ? 0 : 1;
  if (b == null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

const apply = <S,>(updater: Updater<S>, old: S): S =>
  typeof updater === 'function' ? (updater as (old: S) => S)(old) : updater;

/** Columns chosen by hand for a table, kept while the app runs (by the table's column keys). */
const chosenColumns = new Map<string, ColumnVisibilityState>();

/**
 * A table on TanStack Table: sorting (by the server or by itself), column visibility (by breakpoint and
 * by the reader's choice), column widths the reader can drag or set by keyboard, row selection, row
 * actions that fold into a menu before the table needs sideways scrolling, and only the visible rows of
 * a long page (TanStack Virtual). Below its breakpoint a column marked `stack` moves, with its header,
 * under the row's first cell, so a phone's row keeps what identifies it.
 */
export function TableView<T>(props: TableViewProps<T>) {
  const { t } = useTranslation();
  const { columns, rows, serverSort, selection, rowActions } = props;
  const below = useBelow();
  const columnsKey = columns.map((c) => c.key).join(',');
  const [chosen, setChosen] = useState<ColumnVisibilityState>(() => chosenColumns.get(columnsKey) ?? {});
  const [localSort, setLocalSort] = useState<SortingState>([]);
  const [sizing, setSizing] = useState<ColumnSizingState>({});

  const byKey = useMemo(() => new Map(columns.map((c) => [c.key, c])), [columns]);
  const hiddenByWidth = (c: Column<T>) => !!c.hideBelow && below.has(c.hideBelow);
  const visibility: ColumnVisibilityState = {};
  for (const c of columns) visibility[c.key] = chosen[c.key] ?? !hiddenByWidth(c);
  // A column the width hides (not the reader) and marked to stack: its value moves under the first cell.
  const stacked = columns.filter((c) => c.stack && hiddenByWidth(c) && chosen[c.key] === undefined);

  const sorting: SortingState = serverSort
    ? serverSort.sort
      ? [{ id: serverSort.sort, desc: serverSort.order === 'desc' }]
      : []
    : localSort;
  const rowSelection: RowSelectionState = {};
  if (selection) for (const k of selection.selected) rowSelection[k] = true;

  // TanStack Table's rows are records: each row of any kind (a name, an object) stands in one.
  const data = useMemo<Boxed<T>[]>(() => (rows ?? []).map((row) => ({ row })), [rows]);
  const defs = useMemo<ColumnDef<typeof features, Boxed<T>>[]>(
    () => [
      ...columns.map(
        (c): ColumnDef<typeof features, Boxed<T>> => ({
          id: c.key,
          header: c.header,
          accessorFn: (boxed) => c.sortValue?.(boxed.row) ?? null,
          enableSorting: !!c.sortable,
          sortFn: (a, b) => compareValues(c.sortValue?.(a.original.row), c.sortValue?.(b.original.row)),
          enableHiding: c.key !== columns[0]?.key,
          minSize: MIN_WIDTH,
        }),
      ),
      ...(rowActions ? [{ id: ACTIONS, header: rowActions.header, enableHiding: false, enableSorting: false }] : []),
    ],
    [columns, rowActions],
  );

  const table = useTable({
    features,
    columns: defs,
    data,
    getRowId: (boxed) => props.rowKey(boxed.row),
    manualSorting: !!serverSort,
    enableSortingRemoval: false,
    enableRowSelection: !!selection,
    state: { sorting, columnVisibility: visibility, columnSizing: sizing, rowSelection },
    onSortingChange: (updater) => {
      const next = apply(updater, sorting);
      if (!serverSort) return setLocalSort(next);
      const first = next[0];
      if (first) serverSort.onChange(first.id, first.desc ? 'desc' : 'asc');
    },
    onColumnVisibilityChange: (updater) => {
      const next = apply(updater, visibility);
      const mine = { ...chosen };
      for (const [key, shown] of Object.entries(next)) if (shown !== visibility[key]) mine[key] = shown;
      chosenColumns.set(columnsKey, mine);
      setChosen(mine);
    },
    onColumnSizingChange: (updater) => setSizing((old) => apply(updater, old)),
    onRowSelectionChange: (updater) => {
      if (!selection) return;
      const next = apply(updater, rowSelection);
      selection.onChange(new Set(Object.keys(next).filter((k) => next[k])));
    },
  });

  // Actions side by side while the table fits its box; behind a menu from the first pixel it would not.
  const scroller = useRef<HTMLDivElement>(null);
  const [folded, setFolded] = useState<{ at: number } | null>(null);
  const fold = !!rowActions && (folded !== null || below.has('sm'));
  // Measured after every render: rows, columns and texts all change the table's width.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || !rowActions || below.has('sm')) return;
    if (folded === null && box.scrollWidth > box.clientWidth + 1) setFolded({ at: box.scrollWidth });
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the observer reads the fold's width when it fires.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || !rowActions || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      setFolded((now) => (now && box.clientWidth >= now.at ? null : now));
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [!!rowActions]);

  const model = table.getRowModel().rows;
  const virtual = model.length > VIRTUAL_THRESHOLD;
  const measured = typeof ResizeObserver === 'function';
  const virtualizer = useVirtualizer({
    count: virtual ? model.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 1024, height: ROW_HEIGHT * VIEWPORT_ROWS },
    getItemKey: (index) => model[index]?.id ?? index,
  });
  // A box not laid out (no height yet, or no layout at all as in jsdom) shows its first screenful.
  const measuredItems = virtual ? virtualizer.getVirtualItems() : [];
  const items =
    virtual && measuredItems.length === 0
      ? Array.from({ length: Math.min(model.length, VIEWPORT_ROWS) }, (_, index) => ({
          index,
          start: index * ROW_HEIGHT,
          end: (index + 1) * ROW_HEIGHT,
        }))
      : measuredItems;
  const shown = virtual
    ? items.map((item) => ({ row: model[item.index], index: item.index }))
    : model.map((row, index) => ({ row, index }));
  const padTop = virtual ? (items[0]?.start ?? 0) : 0;
  const padBottom = virtual ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;

  const leaf = table.getVisibleLeafColumns();
  const span = leaf.length + (selection ? 1 : 0);
  const hideable = props.chooseColumns === false ? [] : table.getAllLeafColumns().filter((c) => c.getCanHide());

  /** Drag (pointer) or arrow keys on a header's edge set that column's width. */
  const startResize = (id: string, th: HTMLElement | null, startX: number) => {
    const start = th?.getBoundingClientRect().width ?? table.getColumn(id)?.getSize() ?? 150;
    const move = (e: PointerEvent) =>
      table.setColumnSizing((old) => ({ ...old, [id]: Math.max(MIN_WIDTH, Math.round(start + e.clientX - startX)) }));
    const up = () => {
      globalThis.removeEventListener('pointermove', move);
      globalThis.removeEventListener('pointerup', up);
    };
    globalThis.addEventListener('pointermove', move);
    globalThis.addEventListener('pointerup', up);
  };
  const nudge = (id: string, th: HTMLElement | null, by: number) => {
    const now = sizing[id] ?? th?.getBoundingClientRect().width ?? 150;
    table.setColumnSizing((old) => ({ ...old, [id]: Math.max(MIN_WIDTH, Math.round(now + by)) }));
  };

  return (
    <Stack gap="3">
      {props.search || props.toolbar || hideable.length >= 3 ? (
        <Stack direction={{ base: 'column', md: 'row' }} gap="3" justify="space-between" align={{ md: 'center' }}>
          {props.search ?? <span />}
          <HStack gap="2" wrap="wrap">
            {props.toolbar}
            {hideable.length >= 3 ? (
              <Menu.Root closeOnSelect={false}>
                <Menu.Trigger asChild>
                  <Button size="sm" variant="outline" aria-label={t('table:columnsOf', { table: props.label })}>
                    {t('table:columns')}
                  </Button>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content>
                      {hideable.map((c) => (
                        <Menu.CheckboxItem
                          key={c.id}
                          value={c.id}
                          checked={c.getIsVisible()}
                          onCheckedChange={(checked) => c.toggleVisibility(checked)}
                        >
                          {byKey.get(c.id)?.header ?? c.id}
                          <Menu.ItemIndicator />
                        </Menu.CheckboxItem>
                      ))}
                      <Menu.Separator />
                      <Menu.Item
                        value="_reset"
                        disabled={Object.keys(chosen).length === 0 && Object.keys(sizing).length === 0}
                        onSelect={() => {
                          chosenColumns.delete(columnsKey);
                          setChosen({});
                          setSizing({});
                        }}
                      >
                        {t('table:resetColumns')}
                      </Menu.Item>
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            ) : null}
          </HStack>
        </Stack>
      ) : null}
      <Box
        ref={scroller}
        overflow="auto"
        maxH={virtual ? `${ROW_HEIGHT * VIEWPORT_ROWS + 48}px` : undefined}
        borderWidth="1px"
        borderRadius="md"
        aria-busy={props.busy ? true : undefined}
        // Scrollable sideways on narrow screens: reachable by keyboard.
        tabIndex={0}
        role="region"
        aria-label={props.label}
      >
        <Table.Root
          size="sm"
          aria-label={props.label}
          aria-rowcount={(props.rowCount ?? rows?.length ?? 0) + 1}
          interactive={!!props.onRowClick}
        >
          <Table.Header position="sticky" top="0" bg="bg" zIndex="1">
            {table.getHeaderGroups().map((group) => (
              <Table.Row key={group.id}>
                {selection ? (
                  <Table.ColumnHeader width="10">
                    <Checkbox.Root
                      size="sm"
                      checked={
                        table.getIsAllPageRowsSelected()
                          ? true
                          : table.getIsSomePageRowsSelected()
                            ? 'indeterminate'
                            : false
                      }
                      onCheckedChange={(e) => table.toggleAllPageRowsSelected(e.checked === true)}
                    >
                      <Checkbox.HiddenInput aria-label={t('table:selectPage')} />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.ColumnHeader>
                ) : null}
                {group.headers.map((header, i) => {
                  const c = byKey.get(header.column.id);
                  const sorted = header.column.getIsSorted();
                  const width = sizing[header.column.id];
                  const resizable = c && i < group.headers.length - 1;
                  return (
                    <Table.ColumnHeader
                      key={header.id}
                      position="relative"
                      textAlign={c?.align === 'end' ? 'end' : 'start'}
                      aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : undefined}
                      style={width ? { width, minWidth: width } : undefined}
                      whiteSpace="normal"
                    >
                      {header.column.getCanSort() ? (
                        <Button
                          variant="ghost"
                          size="xs"
                          px="1"
                          mx="-1"
                          fontSize="inherit"
                          fontWeight="inherit"
                          whiteSpace="normal"
                          textAlign="start"
                          h="auto"
                          minH="6"
                          onClick={() => header.column.toggleSorting(sorted === 'asc')}
                          onKeyDown={(e) => {
                            if (!e.altKey || !resizable) return;
                            const th = e.currentTarget.closest('th');
                            if (e.key === 'ArrowLeft') nudge(header.column.id, th, -16);
                            else if (e.key === 'ArrowRight') nudge(header.column.id, th, 16);
                            else if (e.key === 'Home') header.column.resetSize();
                            else return;
                            e.preventDefault();
                          }}
                          aria-keyshortcuts={resizable ? 'Alt+ArrowLeft Alt+ArrowRight Alt+Home' : undefined}
                          title={resizable ? t('table:resizeHint') : undefined}
                          aria-label={t('table:sortBy', { column: c?.header ?? header.column.id })}
                        >
                          {c?.header}
                          <span aria-hidden="true">{sorted ? (sorted === 'desc' ? ' ▼' : ' ▲') : ' ↕'}</span>
                        </Button>
                      ) : (
                        (c?.header ?? rowActions?.header)
                      )}
                      {resizable ? (
                        // The header's edge, dragged with a pointer; the keyboard widens a column on its
                        // sort button (Alt+← and Alt+→). Left out of the header's name and the tab order.
                        <Box
                          aria-hidden="true"
                          data-resize={header.column.id}
                          title={t('table:resizeHint')}
                          position="absolute"
                          top="0"
                          insetEnd="0"
                          h="full"
                          w="2"
                          cursor="col-resize"
                          touchAction="none"
                          _hover={{ bg: 'border.emphasized' }}
                          onPointerDown={(e) => {
                            e.preventDefault();
                            startResize(header.column.id, e.currentTarget.parentElement, e.clientX);
                          }}
                          onDoubleClick={() => header.column.resetSize()}
                        />
                      ) : null}
                    </Table.ColumnHeader>
                  );
                })}
              </Table.Row>
            ))}
          </Table.Header>
          <Table.Body>
            {props.placeholder ?? null}
            {padTop > 0 ? <Spacer height={padTop} span={span} /> : null}
            {shown.map(({ row, index }) => {
              if (!row) return null;
              const original = row.original.row;
              return (
                <Table.Row
                  key={row.id}
                  ref={virtual && measured ? virtualizer.measureElement : undefined}
                  data-index={index}
                  minH={virtual ? `${ROW_HEIGHT}px` : undefined}
                  aria-rowindex={(props.firstRowIndex ?? 0) + index + 2}
                  cursor={props.onRowClick ? 'pointer' : undefined}
                  onClick={props.onRowClick ? () => props.onRowClick?.(original) : undefined}
                  data-state={row.getIsSelected() ? 'selected' : undefined}
                >
                  {selection ? (
                    <Table.Cell onClick={(e) => e.stopPropagation()}>
                      <Checkbox.Root
                        size="sm"
                        checked={row.getIsSelected()}
                        onCheckedChange={(e) => row.toggleSelected(e.checked === true)}
                      >
                        <Checkbox.HiddenInput aria-label={selection.rowLabel(original)} />
                        <Checkbox.Control />
                      </Checkbox.Root>
                    </Table.Cell>
                  ) : null}
                  {row.getVisibleCells().map((cell, i) => {
                    if (cell.column.id === ACTIONS && rowActions) {
                      const actions = rowActions.actions(original);
                      return (
                        <Table.Cell key={cell.id} onClick={(e) => e.stopPropagation()}>
                          <RowActionsCell actions={actions} rowLabel={rowActions.rowLabel(original)} folded={fold} />
                        </Table.Cell>
                      );
                    }
                    const c = byKey.get(cell.column.id);
                    if (!c) return null;
                    return (
                      <Table.Cell key={cell.id} textAlign={c.align === 'end' ? 'end' : 'start'}>
                        {c.cell(original)}
                        {i === 0
                          ? stacked.map((s) => {
                              const value = s.cell(original);
                              // A row with nothing in the column (a size a list has not) leaves its line out.
                              if (value === null || value === '') return null;
                              return (
                                <Box key={s.key} fontSize="xs" color="fg.muted" mt="0.5" data-stacked={s.key}>
                                  {s.header}: {value}
                                </Box>
                              );
                            })
                          : null}
                      </Table.Cell>
                    );
                  })}
                </Table.Row>
              );
            })}
            {padBottom > 0 ? <Spacer height={padBottom} span={span} /> : null}
          </Table.Body>
        </Table.Root>
      </Box>
    </Stack>
  );
}

/** Stands in for the rows of a long page that are not rendered, so the scroll bar stays true. */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr data-spacer="" style={{ height }}>
      <td colSpan={span} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}
