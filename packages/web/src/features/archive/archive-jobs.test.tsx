import type { JobCreate, JobUpdate } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { normaliseFolderPath } from '../../components/ui/folder-paths';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

describe('archive jobs', () => {
  it('normalises typed folder paths', () => {
    expect(normaliseFolderPath(' Inbox / TestOrder/ ')).toBe('Inbox/TestOrder');
    expect(normaliseFolderPath('//Sent Items//')).toBe('Sent Items');
  });

  it('take folders by full path and Enter, refuse a folder twice, and create the job', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let created: JobCreate | undefined;
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [
          {
            sourceId: 'm1',
            kind: 'mailbox',
            displayName: 'Adele Vance',
            email: 'adele@contoso.example',
            protected: false,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
      'apollo.jobs.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(createdJob({ locationId: 'l1', ...created }));
      },
    });
    expect(await screen.findByTestId('table-empty')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create archive job' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Mail');
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));
    const folders = within(dialog).getByLabelText('Folders');
    await user.type(folders, 'Inbox/TestOrder{Enter}');
    expect(within(dialog).getByTestId('folder-paths').textContent).toContain('Inbox/TestOrder');
    await user.type(folders, ' inbox / testorder {Enter}');
    expect(within(dialog).getByText('This folder name is already used')).toBeTruthy();
    await user.clear(folders);
    await user.type(folders, 'Sent Items{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      name: 'Mail',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: ['m1'],
      folders: ['Inbox/TestOrder', 'Sent Items'],
      locationId: 'l1',
    });
  });

  it('give the generic messages: the name, at least one mailbox, a folder path’s length and the date', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let created = 0;
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        testPage([
          {
            sourceId: 'm1',
            kind: 'mailbox',
            displayName: 'Adele Vance',
            email: 'adele@contoso.example',
            protected: false,
          },
        ]),
      ),
      'apollo.jobs.create': () => {
        created += 1;
        return HttpResponse.json(
          createdJob({ name: 'x', type: 'exchangeArchive', application: 'exchange', sources: [] }),
        );
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create archive job' }));
    const dialog = await screen.findByRole('dialog');
    const create = () => user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    await create();
    expect(
      within(dialog)
        .getByLabelText(/Job name/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(within(dialog).getByRole('alert').textContent).toBe('Field must not be empty.');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Mail');
    await create();
    expect(within(dialog).getByRole('alert').textContent).toBe('At least one item must be selected.');
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));

    await user.click(within(dialog).getByLabelText('Folders'));
    await user.paste(`Inbox/${'a'.repeat(400)}`);
    await user.keyboard('{Enter}');
    expect(within(dialog).getByText('Value too long (at most 400 characters).')).toBeTruthy();
    expect(within(dialog).getByTestId('folder-paths').textContent).toBe('All folders');

    await user.selectOptions(within(dialog).getByLabelText('Recurrence'), 'specificDate');
    await create();
    expect(within(dialog).getByText('Field must not be empty.')).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(created).toBe(0);
  });

  it('choose what to include by keyboard, at least one, and show and edit what a job includes', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const created: JobCreate[] = [];
    let updated: JobUpdate | undefined;
    const existing = createdJob({
      name: 'Calendars only',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: ['m1'],
      locationId: 'l1',
      include: ['calendars'],
    });
    const whole = {
      ...createdJob({ name: 'Whole', type: 'exchangeArchive', application: 'exchange', sources: ['m1'] }),
      jobId: 'j2',
    };
    const { user } = await renderPortal('/archive/jobs', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([existing, whole])),
      'apollo.discovery.users': respond(
        'apollo.discovery.users',
        testPage([
          {
            sourceId: 'm1',
            kind: 'mailbox',
            displayName: 'Adele Vance',
            email: 'adele@contoso.example',
            protected: true,
          },
        ]),
      ),
      'apollo.jobs.create': async ({ request }) => {
        const body = await request.json();
        created.push(body);
        return HttpResponse.json(createdJob(body));
      },
      'apollo.jobs.update': async ({ request }) => {
        updated = await request.json();
        return HttpResponse.json({ ...existing, ...updated });
      },
    });
    // The list says what each job includes: its choice, or everything.
    const row = await screen.findByRole('row', { name: /Calendars only/ });
    expect(within(row).getByText('Calendars')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Whole/ })).getByText('Everything')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Create archive job' }));
    const dialog = await screen.findByRole('dialog');
    const group = within(dialog).getByRole('group', { name: 'What to include' });
    const boxes = within(group).getAllByRole('checkbox');
    // A new job includes everything.
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, true, true, true]);
    await user.type(within(dialog).getByLabelText(/Job name/), 'Mail');
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));
    // By keyboard: each box takes the focus (a native checkbox, in the tab order), Space toggles it.
    for (const box of boxes) {
      box.focus();
      expect(document.activeElement).toBe(box);
      expect(box.getAttribute('tabindex')).not.toBe('-1');
      await user.keyboard(' ');
    }
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([false, false, false, false]);
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(await within(group).findByText('Choose at least one thing to include.')).toBeTruthy();
    expect(created).toEqual([]);
    await user.click(within(group).getByRole('checkbox', { name: 'To Do tasks' }));
    await user.click(within(group).getByRole('checkbox', { name: 'Contacts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(created).toHaveLength(1));
    // In the parts' order, whatever order they were ticked in.
    expect(created[0]?.include).toEqual(['contacts', 'tasks']);

    // Editing shows the job's choice, and sends the new one.
    await user.click(
      within(await screen.findByRole('row', { name: /Calendars only/ })).getByRole('button', { name: 'Edit' }),
    );
    const edit = await screen.findByRole('dialog');
    const editGroup = within(edit).getByRole('group', { name: 'What to include' });
    expect(
      within(editGroup)
        .getAllByRole('checkbox')
        .map((b) => (b as HTMLInputElement).checked),
    ).toEqual([false, true, false, false]);
    await user.click(within(editGroup).getByRole('checkbox', { name: 'Mail' }));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updated).toBeDefined());
    expect(updated?.include).toEqual(['mail', 'calendars']);
  });
});
