import type { JobStatus } from '@compliance-portal/sdk';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listSearchValidator, parseListSearch, useUrlFilter, useUrlListState } from './url-state';

// The hooks name the route whose address they keep: here one with the id of a monitor of the portal.
const ROUTE = '/_app/_worker/archive/job-monitor';
const PATH = '/archive/job-monitor';

function List() {
  const [state, update] = useUrlListState(ROUTE, { sort: 'started', order: 'desc' });
  const [status, setStatus] = useUrlFilter<JobStatus | ''>(ROUTE, 'status', '');
  return (
    <div>
      <output data-testid="state">{JSON.stringify({ ...state, status })}</output>
      <button type="button" onClick={() => update({ page: state.page + 1 })}>
        next
      </button>
      <button type="button" onClick={() => update({ sort: 'jobName', order: 'asc' })}>
        by name
      </button>
      <button type="button" onClick={() => update({ search: 'Contoso' })}>
        search
      </button>
      <button type="button" onClick={() => setStatus('failed')}>
        failed
      </button>
      <button type="button" onClick={() => setStatus('')}>
        any
      </button>
    </div>
  );
}

function setup(url: string) {
  const root = createRootRoute();
  const app = createRoute({ getParentRoute: () => root, id: '_app' });
  const worker = createRoute({ getParentRoute: () => app, id: '_worker' });
  const list = createRoute({
    getParentRoute: () => worker,
    path: PATH,
    validateSearch: listSearchValidator({ status: ['failed', 'running'] }),
    component: List,
  });
  const history = createMemoryHistory({ initialEntries: [url] });
  const router = createRouter({
    routeTree: root.addChildren([app.addChildren([worker.addChildren([list])])]),
    history,
  });
  render(<RouterProvider router={router} />);
  const state = () => JSON.parse(screen.getByTestId('state').textContent ?? '{}') as Record<string, unknown>;
  const search = () => router.state.location.search as Record<string, unknown>;
  const click = async (name: string) => act(async () => screen.getByRole('button', { name }).click());
  return { router, history, state, search, click };
}

describe('list state in the address', () => {
  it('opens the list as the address says: page, size, sort, order, search and filter', async () => {
    const { state } = setup(`${PATH}?page=3&pageSize=50&sort=jobName&order=asc&search=Fab&status=failed`);
    await screen.findByTestId('state');
    expect(state()).toEqual({
      page: 3,
      pageSize: 50,
      sort: 'jobName',
      order: 'asc',
      search: 'Fab',
      status: 'failed',
    });
  });

  it('leaves out of the address what equals the defaults, and drops values it does not allow', async () => {
    const { state } = setup(`${PATH}?page=0&pageSize=7&order=sideways&status=deleted&sort=a%20b`);
    await screen.findByTestId('state');
    expect(state()).toEqual({ page: 1, pageSize: 25, sort: 'started', order: 'desc', status: '' });
  });

  it('writes each change into the address, back to page 1 when anything but the page changes', async () => {
    const { state, search, click } = setup(PATH);
    await screen.findByTestId('state');
    await click('next');
    await click('next');
    expect(search()).toEqual({ page: 3 });
    await click('by name');
    expect(search()).toEqual({ sort: 'jobName', order: 'asc' });
    await click('next');
    await click('failed');
    expect(search()).toEqual({ sort: 'jobName', order: 'asc', status: 'failed' });
    await click('search');
    expect(state()).toMatchObject({ page: 1, search: 'Contoso', status: 'failed' });
    await click('any');
    expect(search()).toEqual({ sort: 'jobName', order: 'asc', search: 'Contoso' });
  });

  it('replaces the address entry rather than adding one, so Back leaves the list', async () => {
    const { history, click } = setup(PATH);
    await screen.findByTestId('state');
    const length = history.length;
    await click('next');
    await click('failed');
    expect(history.length).toBe(length);
  });

  it('reads a second list of a page under its own prefix', () => {
    expect(parseListSearch({ 'accounts.page': '2', page: 5, 'accounts.sort': 'displayName' }, 'accounts.')).toEqual({
      page: 2,
      sort: 'displayName',
    });
  });
});
