import type { DeletionPreview, DiscoveredSource, Job, JobCreate, JobUpdate } from '@compliance-portal/sdk';
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

const PREVIEW: DeletionPreview = {
  before: '2020-01-01T00:00:00.000Z',
  items: 1204,
  bytes: 3 * 1024 ** 2,
  sources: 3,
  held: 0,
  heldCustodians: [],
};

const mailbox = (sourceId: string, displayName: string): DiscoveredSource => ({
  sourceId,
  kind: 'mailbox',
  displayName,
  email: `${sourceId}@contoso.example`,
  protected: true,
});

function resolvers(
  calls: { created: JobCreate[]; updated: JobUpdate[]; started: string[] },
  preview: DeletionPreview = PREVIEW,
  jobs: Job[] = [],
): Resolvers {
  return {
    'legacy.workers.client': respond('legacy.workers.client', testClient()),
    'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
    'apollo.jobs.list': respond('apollo.jobs.list', testPage(jobs)),
    'apollo.discovery.users': () =>
      HttpResponse.json({
        items: [mailbox('m1', 'Adele Vance'), mailbox('m2', 'Alex Wilber'), mailbox('m3', 'Megan Bowen')],
        total: 3,
        page: 1,
        pageSize: 10,
      }),
    'apollo.jobs.deletionPreview': () => HttpResponse.json(preview),
    'apollo.jobs.create': async ({ request }) => {
      const body = (await request.json()) as JobCreate;
      calls.created.push(body);
      return HttpResponse.json(createdJob(body));
    },
    'apollo.jobs.start': ({ params }) => {
      calls.started.push(String(params.jobId));
      return HttpResponse.json(
        { taskId: 't1', jobId: String(params.jobId), action: 'start', status: 'succeeded' },
        { status: 202 },
      );
    },
    'apollo.jobs.update': async ({ request }) => {
      const body = (await request.json()) as JobUpdate;
      calls.updated.push(body);
      const [job] = jobs;
      if (!job) return new HttpResponse(null, { status: 404 });
      return HttpResponse.json({ ...job, ...body });
    },
  };
}

function signIn() {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
}

/** The form filled in: a name, three mailboxes, and at once after it is saved. */
async function fillForm(user: Awaited<ReturnType<typeof renderPortal>>['user'], language: 'en' | 'de' = 'en') {
  const en = language === 'en';
  await user.click(await screen.findByRole('button', { name: en ? 'Create deletion job…' : 'Löschauftrag anlegen…' }));
  const dialog = await screen.findByRole('dialog');
  await user.type(within(dialog).getByLabelText(en ? /Job name/ : /Name des Auftrags/), 'Old mail');
  for (const name of ['Adele Vance', 'Alex Wilber', 'Megan Bowen']) {
    await user.click(await within(dialog).findByLabelText(en ? `Select ${name}` : `${name} auswählen`));
  }
  return dialog;
}

afterEach(() => localStorage.removeItem('language'));

describe('the confirmation of a deletion job', () => {
  it("states what it deletes in the preview's numbers; Cancel creates nothing; confirming creates it and the toast names a deletion job", async () => {
    signIn();
    const calls = { created: [] as JobCreate[], updated: [] as JobUpdate[], started: [] as string[] };
    const { user } = await renderPortal('/archive/deletion-jobs', resolvers(calls));
    const form = await fillForm(user);
    await user.click(within(form).getByRole('button', { name: 'Create job' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Create the deletion job "Old mail"?' });
    expect((await within(confirm).findByTestId('deletion-confirm-what')).textContent).toBe(
      'Deletes 1,204 mails (3 MB) from 3 mailboxes, archived before Jan 1, 2020; it cannot be undone.',
    );
    expect(within(confirm).getByTestId('deletion-confirm-when').textContent).toBe(
      'It runs on its schedule (Monthly · 03:00); each run deletes what is then older than the retention.',
    );
    // (The focus starts on Cancel: jsdom has no layout to focus by, so the Chromium test checks that.)
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.created).toEqual([]);
    // Back in the form, as it was.
    expect(screen.getByRole('dialog')).toBe(form);

    await user.click(within(form).getByRole('button', { name: 'Create job' }));
    confirm = await screen.findByRole('alertdialog');
    await within(confirm).findByTestId('deletion-confirm-what');
    await user.click(within(confirm).getByRole('button', { name: 'Create deletion job' }));
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({ type: 'archiveDeletion', name: 'Old mail', sources: ['m1', 'm2', 'm3'] });
    expect(await screen.findByText('The deletion job "Old mail" was created.')).toBeTruthy();
    expect(screen.queryByText(/The backup job/)).toBeNull();
  });

  it('says a job that runs once at once runs as soon as it is saved, and what legal holds keep', async () => {
    signIn();
    const calls = { created: [] as JobCreate[], updated: [] as JobUpdate[], started: [] as string[] };
    const { user } = await renderPortal(
      '/archive/deletion-jobs',
      resolvers(calls, { ...PREVIEW, items: 1, sources: 1, held: 12, bytes: 2048 }),
    );
    const form = await fillForm(user);
    await user.selectOptions(within(form).getByLabelText('Recurrence'), 'afterCreation');
    await user.click(within(form).getByRole('button', { name: 'Create job' }));
    const confirm = await screen.findByRole('alertdialog');
    expect((await within(confirm).findByTestId('deletion-confirm-what')).textContent).toBe(
      'Deletes 1 mail (2 KB) from 1 mailbox, archived before Jan 1, 2020; it cannot be undone.',
    );
    expect(within(confirm).getByTestId('deletion-confirm-held').textContent).toBe(
      '12 mails as old stay: eDiscovery cases on legal hold keep them.',
    );
    expect(within(confirm).getByTestId('deletion-confirm-when').textContent).toBe('It runs as soon as it is saved.');
  });

  it('saves an edited job only after its confirmation, and says so as a deletion job', async () => {
    signIn();
    const job = createdJob({
      name: 'Old mail',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: ['m1', 'm2', 'm3'],
      retention: { unit: 'year', value: 1 },
      recurrence: { kind: 'monthly', dayOfMonth: 1, hours: [3] },
    });
    const calls = { created: [] as JobCreate[], updated: [] as JobUpdate[], started: [] as string[] };
    const { user } = await renderPortal('/archive/deletion-jobs', resolvers(calls, PREVIEW, [job]));
    const jobs = await screen.findByRole('table', { name: 'Deletion jobs' });
    await user.click(await within(jobs).findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('dialog');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Save the deletion job "Old mail"?' });
    expect((await within(confirm).findByTestId('deletion-confirm-what')).textContent).toContain('1,204 mails');
    expect(calls.updated).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Save deletion job' }));
    await waitFor(() => expect(calls.updated).toHaveLength(1));
    expect(await screen.findByText('The deletion job "Old mail" was saved.')).toBeTruthy();
  });

  it('says what a run started now deletes before it starts; Cancel starts nothing', async () => {
    signIn();
    const job = createdJob({
      name: 'Old mail',
      type: 'archiveDeletion',
      application: 'exchange',
      sources: ['m1', 'm2', 'm3'],
      retention: { unit: 'year', value: 1 },
    });
    const calls = { created: [] as JobCreate[], updated: [] as JobUpdate[], started: [] as string[] };
    const { user } = await renderPortal('/archive/deletion-jobs', resolvers(calls, PREVIEW, [job]));
    const jobs = await screen.findByRole('table', { name: 'Deletion jobs' });
    await user.click(await within(jobs).findByRole('button', { name: 'Start…' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Start "Old mail"?' });
    expect((await within(confirm).findByTestId('deletion-confirm-what')).textContent).toBe(
      'Deletes 1,204 mails (3 MB) from 3 mailboxes, archived before Jan 1, 2020; it cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.started).toEqual([]);
    await user.click(within(jobs).getByRole('button', { name: 'Start…' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(calls.started).toEqual(['j1']));
  });

  it('says it in German', async () => {
    localStorage.setItem('language', 'de');
    signIn();
    const calls = { created: [] as JobCreate[], updated: [] as JobUpdate[], started: [] as string[] };
    const { user } = await renderPortal('/archive/deletion-jobs', resolvers(calls));
    const form = await fillForm(user, 'de');
    await user.click(within(form).getByRole('button', { name: 'Auftrag anlegen' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Löschauftrag „Old mail“ anlegen?' });
    expect((await within(confirm).findByTestId('deletion-confirm-what')).textContent).toBe(
      'Löscht 1.204 E-Mails (3 MB) aus 3 Postfächern, archiviert vor dem 01.01.2020; das lässt sich nicht rückgängig machen.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Löschauftrag anlegen' }));
    expect(await screen.findByText('Der Löschauftrag „Old mail“ wurde angelegt.')).toBeTruthy();
    expect(calls.created).toHaveLength(1);
  });
});
