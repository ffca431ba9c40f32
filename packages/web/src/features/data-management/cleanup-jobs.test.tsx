import type { DiscoveredSource, Job, JobCreate, JobUpdate } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { type Resolvers, renderPortal, startMsw } from '../../testing/portal';

startMsw();
// Whole forms filled in, dialog over dialog: up to a minute on a loaded 2-core machine (measured 64 s at a load of 15).
vi.setConfig({ testTimeout: 60_000 });

const SITES: DiscoveredSource[] = [
  {
    sourceId: 's-hr',
    kind: 'site',
    displayName: 'HR',
    url: 'https://contoso.sharepoint.com/sites/hr',
    protected: false,
  },
  {
    sourceId: 's-legal',
    kind: 'site',
    displayName: 'Legal',
    url: 'https://contoso.sharepoint.com/sites/legal',
    protected: false,
  },
];

const weekly: Job = createdJob({
  name: 'Old versions of HR',
  type: 'versionCleanup',
  application: 'sharepoint',
  sources: ['s-hr'],
  cleanupRule: { kind: 'keepNewest', count: 5 },
  recurrence: { kind: 'weekly', hours: [2] },
});

interface Calls {
  created: JobCreate[];
  updated: JobUpdate[];
  actions: string[];
  listed: string[];
}

function resolvers(calls: Calls, jobs: Job[] = []): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
    'apollo.jobs.list': ({ request }) => {
      const url = new URL(request.url);
      calls.listed.push(url.searchParams.get('type') ?? '');
      return HttpResponse.json(testPage(jobs));
    },
    'apollo.discovery.users': () => HttpResponse.json({ items: SITES, total: SITES.length, page: 1, pageSize: 10 }),
    'apollo.jobs.create': async ({ request }) => {
      const body = (await request.json()) as JobCreate;
      calls.created.push(body);
      return HttpResponse.json(createdJob(body));
    },
    'apollo.jobs.update': async ({ request, params }) => {
      const body = (await request.json()) as JobUpdate;
      calls.updated.push(body);
      const job = jobs.find((j) => j.jobId === params.jobId) ?? weekly;
      return HttpResponse.json({ ...job, ...body });
    },
    'apollo.jobs.start': ({ params }) => {
      calls.actions.push(`start ${String(params.jobId)}`);
      return HttpResponse.json(
        { taskId: 't1', jobId: String(params.jobId), action: 'start', status: 'succeeded' },
        { status: 202 },
      );
    },
    'apollo.jobs.delete': ({ params }) => {
      calls.actions.push(`delete ${String(params.jobId)}`);
      return new HttpResponse(null, { status: 204 });
    },
    'apollo.jobs.stop': ({ params }) => {
      calls.actions.push(`stop ${String(params.jobId)}`);
      return HttpResponse.json(
        { taskId: 't2', jobId: String(params.jobId), action: 'stop', status: 'succeeded' },
        { status: 202 },
      );
    },
  };
}

const newCalls = (): Calls => ({ created: [], updated: [], actions: [], listed: [] });

function signIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
}

afterEach(() => localStorage.removeItem('language'));

describe('clean-up jobs', () => {
  it('are reached from the data-management navigation and list the clean-up jobs with their sites and rule in words', async () => {
    signIn();
    const calls = newCalls();
    const olderThan: Job = {
      ...weekly,
      jobId: 'j2',
      name: 'Pre-2024',
      cleanupRule: { kind: 'olderThan', date: '2024-01-01T00:00:00.000Z' },
    };
    const { user, path } = await renderPortal('/reports', resolvers(calls, [weekly, olderThan]));
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    calls.listed.length = 0;
    await user.click(within(nav).getByRole('link', { name: 'Clean-up jobs' }));
    await waitFor(() => expect(path()).toBe('/compliance/jobs'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clean-up jobs' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Clean-up jobs' });
    const row = (await within(table).findByText('Old versions of HR')).closest('tr') as HTMLElement;
    expect(await within(row).findByText('HR')).toBeTruthy();
    expect(within(row).queryByText('s-hr')).toBeNull();
    expect(within(row).getByTestId('cleanup-rule').textContent).toBe('Keep the newest 5 versions');
    const other = within(table).getByText('Pre-2024').closest('tr') as HTMLElement;
    expect(within(other).getByTestId('cleanup-rule').textContent).toBe('Remove versions older than Jan 1, 2024');
    // The list asks for clean-up jobs only.
    expect(calls.listed.length).toBeGreaterThan(0);
    expect(new Set(calls.listed)).toEqual(new Set(['versionCleanup']));
  });

  it('creates a job from the form: sites, rule and schedule', async () => {
    signIn();
    const calls = newCalls();
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls));
    await user.click(await screen.findByRole('button', { name: 'Create clean-up job' }));
    const form = await screen.findByRole('dialog', { name: 'Create a clean-up job' });
    await user.type(within(form).getByLabelText(/Job name/), 'Legal versions');
    await user.click(await within(form).findByLabelText('Select Legal'));
    await user.clear(within(form).getByLabelText('Versions to keep'));
    await user.type(within(form).getByLabelText('Versions to keep'), '3');
    await user.selectOptions(within(form).getByLabelText('Recurrence'), 'daily');
    await user.click(within(form).getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toEqual({
      name: 'Legal versions',
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: ['s-legal'],
      cleanupRule: { kind: 'keepNewest', count: 3 },
      recurrence: { kind: 'daily', hours: [2] },
    });
    expect(await screen.findByText('The clean-up job "Legal versions" was created.')).toBeTruthy();
  });

  it('says what is missing in words and saves nothing until it is complete', async () => {
    signIn();
    const calls = newCalls();
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls));
    await user.click(await screen.findByRole('button', { name: 'Create clean-up job' }));
    const form = await screen.findByRole('dialog');
    const submit = within(form).getByRole('button', { name: 'Create job' });
    await user.click(submit);
    expect(within(form).getByRole('alert').textContent).toBe('Field must not be empty.');
    await user.type(within(form).getByLabelText(/Job name/), 'Versions');
    await user.click(submit);
    expect(within(form).getByRole('alert').textContent).toBe('At least one item must be selected.');
    await user.click(await within(form).findByLabelText('Select HR'));
    await user.clear(within(form).getByLabelText('Versions to keep'));
    await user.type(within(form).getByLabelText('Versions to keep'), '0');
    await user.click(submit);
    expect(within(form).getByRole('alert').textContent).toBe('The rule: Minimum value 1.');
    await user.selectOptions(within(form).getByLabelText('Kind of rule'), 'olderThan');
    await user.click(submit);
    expect(within(form).getByRole('alert').textContent).toBe('The rule: Field must not be empty.');
    expect(calls.created).toEqual([]);
  });

  it('edits a job from its stored values, keeping its workload', async () => {
    signIn();
    const calls = newCalls();
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls, [weekly]));
    const table = await screen.findByRole('table', { name: 'Clean-up jobs' });
    await user.click(await within(table).findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('dialog', { name: 'Edit the clean-up job' });
    expect((within(form).getByLabelText(/Job name/) as HTMLInputElement).value).toBe('Old versions of HR');
    expect((within(form).getByLabelText('Versions to keep') as HTMLInputElement).value).toBe('5');
    expect((within(form).getByRole('radio', { name: 'OneDrive' }) as HTMLInputElement).disabled).toBe(true);
    await user.selectOptions(within(form).getByLabelText('Kind of rule'), 'olderThan');
    await user.type(within(form).getByLabelText('Date'), '2023-06-30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(calls.updated[0]).toEqual({
      name: 'Old versions of HR',
      sources: ['s-hr'],
      cleanupRule: { kind: 'olderThan', date: '2023-06-30T00:00:00.000Z' },
      recurrence: { kind: 'weekly', hours: [2] },
    });
    expect(await screen.findByText('The clean-up job "Old versions of HR" was saved.')).toBeTruthy();
  });

  it('starts a job and stops a running one after their confirmations', async () => {
    signIn();
    const calls = newCalls();
    const running = { ...weekly, jobId: 'j2', name: 'Running now', status: 'running' as const, progress: 40 };
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls, [weekly, running]));
    const table = await screen.findByRole('table', { name: 'Clean-up jobs' });
    const idle = (await within(table).findByText('Old versions of HR')).closest('tr') as HTMLElement;
    await user.click(within(idle).getByRole('button', { name: 'Start…' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Start "Old versions of HR"?' });
    await user.click(within(confirm).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(calls.actions).toEqual(['start j1']));
    expect(await screen.findByText('"Old versions of HR" started.')).toBeTruthy();

    const busy = within(table).getByText('Running now').closest('tr') as HTMLElement;
    await user.click(within(busy).getByRole('button', { name: 'Stop…' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Stop "Running now"?' });
    await user.click(within(confirm).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(calls.actions).toEqual(['start j1', 'stop j2']));
    expect(await screen.findByText('"Running now" stopped.')).toBeTruthy();
  });

  it('removes a job after a confirmation that says what removing a clean-up job does', async () => {
    signIn();
    const calls = newCalls();
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls, [weekly]));
    const table = await screen.findByRole('table', { name: 'Clean-up jobs' });
    await user.click(await within(table).findByRole('button', { name: 'Remove…' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove "Old versions of HR"?' });
    expect(confirm.textContent).toContain(
      'The job and its schedule are removed; it removes no more versions. Versions it removed stay removed.',
    );
    expect(confirm.textContent).not.toContain('backups');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.actions).toEqual(['delete j1']));
  });

  it('reads in German', async () => {
    localStorage.setItem('language', 'de');
    signIn();
    const calls = newCalls();
    const { user } = await renderPortal('/compliance/jobs', resolvers(calls, [weekly]));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bereinigungsaufträge' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Bereinigungsaufträge' });
    expect((await within(table).findByTestId('cleanup-rule')).textContent).toBe('Die neuesten 5 Versionen behalten');
    await user.click(screen.getByRole('button', { name: 'Bereinigungsauftrag anlegen' }));
    const form = await screen.findByRole('dialog', { name: 'Bereinigungsauftrag anlegen' });
    await user.click(within(form).getByRole('button', { name: 'Auftrag anlegen' }));
    expect(within(form).getByRole('alert').textContent).toBe('Das Feld darf nicht leer sein.');
    expect(calls.created).toEqual([]);
  });
});
