import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import type { RowAction } from './row-actions';
import { type Column, TableView } from './table-view';

interface Run {
  id: string;
  name: string;
  items: number;
  started: string;
}
const RUNS: Run[] = [
  { id: 'a', name: 'Teams', items: 30, started: '29.11.2026' },
  { id: 'b', name: 'OneDrive', items: 5, started: '28.11.2026' },
  { id: 'c', name: 'SharePoint', items: 120, started: '27.11.2026' },
];
const COLUMNS: Column<Run>[] = [
  { key: 'name', header: 'Name', cell: (r) => r.name, sortable: true, sortValue: (r) => r.name },
  { key: 'items', header: 'Items', cell: (r) => String(r.items), sortable: true, sortValue: (r) => r.items },
  { key: 'started', header: 'Started', cell: (r) => r.started, hideBelow: 'sm', stack: true },
  { key: 'extra', header: 'Extra', cell: () => 'x', hideBelow: 'md' },
];

const i18n = createI18n('en');
beforeAll(() => {
  // The menus' positioning follows their trigger's size.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  return loadLanguage(i18n, 'en');
});

function show(props: Partial<Parameters<typeof TableView<Run>>[0]> = {}) {
  return render(
    <ChakraProvider value={defaultSystem}>
      <I18nextProvider i18n={i18n}>
        <TableView label="Runs" columns={COLUMNS} rows={RUNS} rowKey={(r) => r.id} {...props} />
      </I18nextProvider>
    </ChakraProvider>,
  );
}
const names = () =>
  within(screen.getByRole('table', { name: 'Runs' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td')?.firstChild?.textContent);

/** A window `width` px wide (jsdom has no media queries of its own). */
function narrowTo(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: width <= Number(/max-width: ([\d.]+)px/.exec(query)?.[1]),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('the table view', () => {
  it('sorts its rows itself by a column, up and down, and says so to a screen reader', async () => {
    const user = userEvent.setup();
    show();
    expect(names()).toEqual(['Teams', 'OneDrive', 'SharePoint']);
    await user.click(screen.getByRole('button', { name: 'Sort by Items' }));
    expect(names()).toEqual(['OneDrive', 'Teams', 'SharePoint']);
    expect(screen.getByRole('columnheader', { name: /Items/ }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'Sort by Items' }));
    expect(names()).toEqual(['SharePoint', 'Teams', 'OneDrive']);
    expect(screen.getByRole('columnheader', { name: /Items/ }).getAttribute('aria-sort')).toBe('descending');
    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    expect(names()).toEqual(['OneDrive', 'SharePoint', 'Teams']);
  });

  it('asks the server for a sort where the server sorts, and shows the rows as they come', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    show({ serverSort: { sort: 'items', order: 'asc', onChange } });
    expect(names()).toEqual(['Teams', 'OneDrive', 'SharePoint']);
    await user.click(screen.getByRole('button', { name: 'Sort by Items' }));
    expect(onChange).toHaveBeenCalledWith('items', 'desc');
    await user.click(screen.getByRole('button', { name: 'Sort by Name' }));
    expect(onChange).toHaveBeenLastCalledWith('name', 'asc');
  });

  it('hides and shows columns from its Columns menu, and sets them back', async () => {
    const user = userEvent.setup();
    show();
    const table = screen.getByRole('table', { name: 'Runs' });
    expect(within(table).getByRole('columnheader', { name: 'Started' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Choose the columns of Runs' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Started' }));
    await waitFor(() => expect(within(table).queryByRole('columnheader', { name: 'Started' })).toBeNull());
    expect(within(table).queryByText('29.11.2026')).toBeNull();
    // The first column names the row: it cannot be hidden.
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Name' })).toBeNull();
    await user.click(screen.getByRole('menuitem', { name: 'Show the usual columns' }));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Started' })).toBeTruthy());
  });

  it('widens and narrows a column by keyboard on its sort button, and sets it back', async () => {
    const user = userEvent.setup();
    show();
    const header = screen.getByRole('columnheader', { name: /Name/ });
    screen.getByRole('button', { name: 'Sort by Name' }).focus();
    await user.keyboard('{Alt>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Alt}');
    // jsdom lays nothing out: from 0 px, at least the least width (48 px), then 16 px a press.
    expect(header.style.width).toBe('96px');
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(header.style.width).toBe('80px');
    // Without Alt the keys are the page's, not the column's.
    await user.keyboard('{ArrowRight}');
    expect(header.style.width).toBe('80px');
    await user.keyboard('{Alt>}{Home}{/Alt}');
    expect(header.style.width).toBe('');
  });

  it('shows row actions side by side, each with its state', async () => {
    const user = userEvent.setup();
    const started: string[] = [];
    const rowActions = {
      header: 'Actions',
      rowLabel: (r: Run) => r.name,
      actions: (r: Run): RowAction[] => [
        { key: 'start', label: 'Start', onSelect: () => started.push(r.id) },
        { key: 'remove', label: 'Remove', onSelect: () => undefined, disabled: true, reason: 'A trial keeps its jobs' },
      ],
    };
    show({ rowActions });
    const row = screen.getByRole('group', { name: 'Actions for OneDrive' });
    await user.click(within(row).getByRole('button', { name: 'Start' }));
    expect(started).toEqual(['b']);
    const remove = within(row).getByRole('button', { name: 'Remove' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    expect(remove.getAttribute('title')).toBe('A trial keeps its jobs');
    // Written too, for touch screens that show no tooltip, and read with the button.
    const reason = document.getElementById(remove.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('A trial keeps its jobs');
  });
});

describe('the table view on a phone', () => {
  it('moves a hidden column marked to stack under the row’s name, with its header, and leaves the others out', () => {
    narrowTo(390);
    show();
    const table = screen.getByRole('table', { name: 'Runs' });
    expect(within(table).queryByRole('columnheader', { name: 'Started' })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Extra' })).toBeNull();
    const first = within(table).getAllByRole('row')[1]?.querySelector('td');
    expect(first?.textContent).toBe('TeamsStarted: 29.11.2026');
    expect(within(table).queryByText('x')).toBeNull();
  });

  it('folds a row’s further actions into a menu that says why one is disabled', async () => {
    narrowTo(390);
    const user = userEvent.setup();
    const removed: string[] = [];
    show({
      rowActions: {
        header: 'Actions',
        rowLabel: (r) => r.name,
        actions: (r) => [
          { key: 'start', label: 'Start', onSelect: () => undefined },
          { key: 'edit', label: 'Edit', onSelect: () => removed.push(`edit ${r.id}`) },
          {
            key: 'remove',
            label: 'Remove',
            onSelect: () => undefined,
            disabled: true,
            reason: 'A trial keeps its jobs',
          },
        ],
      },
    });
    const row = screen.getByRole('group', { name: 'Actions for Teams' });
    expect(within(row).getByRole('button', { name: 'Start' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'More actions for Teams' }));
    const more = await screen.findByRole('group', { name: 'More actions for Teams' });
    const remove = within(more).getByRole('button', { name: 'Remove' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    // Its reason written under it (a tooltip never shows on touch), and read with it.
    expect(document.getElementById(remove.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'A trial keeps its jobs',
    );
    await user.click(within(more).getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(removed).toEqual(['edit a']));
  });
});
