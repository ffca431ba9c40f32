import type { DeletionPreviewRequest, JobCreate } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { createdJob, testClient, testLocation, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

describe('deletion jobs', () => {
  it('show what the retention would delete before the job is created', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    const previews: DeletionPreviewRequest[] = [];
    let created: JobCreate | undefined;
    const { user } = await renderPortal('/archive/deletion-jobs', {
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
            protected: true,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
      'apollo.jobs.deletionPreview': async ({ request }) => {
        previews.push(await request.json());
        return HttpResponse.json({
          before: '2025-11-23T00:00:00.000Z',
          items: 1234,
          bytes: 3 * 1024 ** 2,
          sources: 1,
          held: 0,
          heldCustodians: [],
        });
      },
      'apollo.jobs.create': async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(createdJob(created));
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create deletion job…' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('deletion-preview').textContent).toContain('Choose mailboxes');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Old mail');
    await user.click(await within(dialog).findByLabelText('Select Adele Vance'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('deletion-preview').textContent).toContain(
        'delete 1,234 mails (3 MB) from 1 mailbox',
      ),
    );
    expect(previews.at(-1)).toEqual({
      application: 'exchange',
      sources: ['m1'],
      retention: { unit: 'year', value: 1 },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    // Nothing is created before the confirmation that says what the job deletes.
    const confirm = await screen.findByRole('alertdialog');
    expect(created).toBeUndefined();
    await user.click(within(confirm).getByRole('button', { name: 'Create deletion job' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      type: 'archiveDeletion',
      application: 'exchange',
      sources: ['m1'],
      retention: { unit: 'year', value: 1 },
    });
  });

  it('say how many items legal holds keep from the deletion and of which custodians, in English and German', async () => {
    for (const [language, kept, custodians] of [
      [
        'en',
        '3 kept by legal hold',
        [
          'Board Room (mailbox): 2 items, case "Falcon"',
          'Megan Bowen (chats): 1 item, case "Falcon"',
          'Project Falcon (team channels): 1,200 items, case "Merger"',
        ],
      ],
      [
        'de',
        '3 durch Legal Hold bewahrt',
        [
          'Board Room (Postfach): 2 Elemente, Fall „Falcon“',
          'Megan Bowen (Chats): 1 Element, Fall „Falcon“',
          'Project Falcon (Team-Kanäle): 1.200 Elemente, Fall „Merger“',
        ],
      ],
    ] as const) {
      localStorage.setItem('language', language);
      storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
      storeWorker(testWorker());
      const { user, view } = await renderPortal('/archive/deletion-jobs', {
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
              protected: true,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 10,
        }),
        'apollo.jobs.deletionPreview': respond('apollo.jobs.deletionPreview', {
          before: '2025-11-23T00:00:00.000Z',
          items: 10,
          bytes: 1024,
          sources: 1,
          held: 3,
          heldCustodians: [
            { caseId: 'k1', caseName: 'Falcon', kind: 'mailbox', id: 'm-board', name: 'Board Room', items: 2 },
            { caseId: 'k1', caseName: 'Falcon', kind: 'chats', id: 'u-megan', name: 'Megan Bowen', items: 1 },
            { caseId: 'k2', caseName: 'Merger', kind: 'team', id: 't-falcon', name: 'Project Falcon', items: 1200 },
          ],
        }),
      });
      await user.click(
        await screen.findByRole('button', {
          name: language === 'en' ? 'Create deletion job…' : 'Löschauftrag anlegen…',
        }),
      );
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).queryByTestId('deletion-held')).toBeNull();
      await user.click(
        await within(dialog).findByLabelText(language === 'en' ? 'Select Adele Vance' : 'Adele Vance auswählen'),
      );
      expect((await within(dialog).findByTestId('deletion-held')).textContent).toBe(kept);
      // The held custodians by name, never by id.
      const held = within(dialog).getByTestId('deletion-held-custodians');
      expect(
        within(held)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(custodians);
      expect(held.textContent).not.toMatch(/m-board|u-megan|t-falcon/);
      view.unmount();
    }
    localStorage.removeItem('language');
  });

  it('name the mailboxes of a listed job, though a deletion writes to no location', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    await renderPortal('/archive/deletion-jobs', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond(
        'apollo.jobs.list',
        testPage([
          createdJob({
            name: 'Old mail',
            type: 'archiveDeletion',
            application: 'exchange',
            sources: ['f3430f6e-fabf-e051-30cf-7c06ce78df03'],
            retention: { unit: 'days', value: 30 },
          }),
        ]),
      ),
      'apollo.discovery.users': respond('apollo.discovery.users', {
        items: [
          {
            sourceId: 'f3430f6e-fabf-e051-30cf-7c06ce78df03',
            kind: 'mailbox',
            displayName: 'Megan Bowen',
            email: 'megan@contoso.example',
            protected: true,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 500,
      }),
    });
    const jobs = await screen.findByRole('table', { name: 'Deletion jobs' });
    expect(await within(jobs).findByText('Megan Bowen')).toBeTruthy();
    expect(within(jobs).queryByText('f3430f6e-fabf-e051-30cf-7c06ce78df03')).toBeNull();
  });

  it('need a name and at least one mailbox', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
    storeWorker(testWorker());
    let created = 0;
    const { user } = await renderPortal('/archive/deletion-jobs', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.locations.list': respond('apollo.locations.list', [testLocation()]),
      'apollo.jobs.list': respond('apollo.jobs.list', testPage([])),
      'apollo.discovery.users': respond('apollo.discovery.users', testPage([])),
      'apollo.jobs.create': () => {
        created += 1;
        return HttpResponse.json(
          createdJob({ name: 'x', type: 'archiveDeletion', application: 'exchange', sources: [] }),
        );
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create deletion job…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Field must not be empty.');
    await user.type(within(dialog).getByLabelText(/Job name/), 'Old mail');
    await user.click(within(dialog).getByRole('button', { name: 'Create job' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('At least one item must be selected.');
    expect(created).toBe(0);
  });
});
