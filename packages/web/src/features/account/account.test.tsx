import type { NotificationSettings, SupportRequestCreate } from '@compliance-portal/sdk';
import { refuse, respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { expectServerAction, restoreOnline, setOnline } from '../../testing/offline';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();
restoreOnline();

const signedIn = () => {
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
};
const client = respond('legacy.workers.client', testClient());

describe('notification settings', () => {
  it('saves only changed settings, saying so until they are saved', async () => {
    signedIn();
    let saved: NotificationSettings | undefined;
    const settings: NotificationSettings = {
      jobFailed: true,
      jobFinished: false,
      dailySummary: false,
      weeklyReport: true,
      licenseExpiry: true,
    };
    const { user } = await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', settings),
      'legacy.user.updateNotifications': async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json(saved);
      },
    });
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    expect(screen.getByText('A mail when a run finishes.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /A job run finished/ }));
    expect(screen.getByTestId('unsaved')).toBeTruthy();
    await user.click(save);
    // The mails' language was never chosen: it is saved as the interface's.
    await waitFor(() => expect(saved).toEqual({ ...settings, jobFinished: true, language: 'en' }));
    await waitFor(() => expect(screen.queryByTestId('unsaved')).toBeNull());
  });
});

describe('the mail language and the test mail', () => {
  const settings: NotificationSettings = {
    jobFailed: true,
    jobFinished: false,
    dailySummary: true,
    weeklyReport: true,
    licenseExpiry: true,
    email: 'ops@contoso.example',
  };

  it('shows the interface’s language until one is chosen, and saves the one chosen', async () => {
    signedIn();
    localStorage.setItem('language', 'de');
    let saved: NotificationSettings | undefined;
    const { user } = await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', settings),
      'legacy.user.updateNotifications': async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json(saved);
      },
    });
    const language = await screen.findByRole('combobox', { name: 'Sprache der E-Mails' });
    expect(language).toHaveProperty('value', 'de');
    await user.selectOptions(language, 'en');
    expect(screen.getByTestId('unsaved').textContent).toContain('Speichern Sie zuerst');
    // The test mail goes where the saved settings say: not while changes are unsaved.
    expect(screen.getByRole('button', { name: 'Test-E-Mail senden' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(saved).toEqual({ ...settings, language: 'en' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Test-E-Mail senden' })).toHaveProperty('disabled', false),
    );
  });

  it('shows a saved language whatever the interface’s', async () => {
    signedIn();
    await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', { ...settings, language: 'de' }),
    });
    expect(await screen.findByRole('combobox', { name: 'Language of the mails' })).toHaveProperty('value', 'de');
  });

  it('sends a test mail and names the address it went to', async () => {
    signedIn();
    let calls = 0;
    const { user } = await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', settings),
      'legacy.user.testNotification': () => {
        calls++;
        return HttpResponse.json({
          to: 'ops@contoso.example',
          message: 'A test mail was sent to ops@contoso.example.',
        });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Send a test mail' }));
    expect(await screen.findByText('A test mail was sent to ops@contoso.example.')).toBeTruthy();
    expect(calls).toBe(1);
  });

  it.each([
    [
      'en',
      'Send a test mail',
      "The mail could not be sent: the portal's mail server refused it or could not be reached.",
    ],
    [
      'de',
      'Test-E-Mail senden',
      'Die E-Mail konnte nicht gesendet werden: Der Mailserver des Portals hat sie abgelehnt',
    ],
  ])('says in %s why a test mail could not be sent', async (lang, button, reason) => {
    signedIn();
    localStorage.setItem('language', lang);
    const { user } = await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', settings),
      'legacy.user.testNotification': () =>
        refuse(502, { message: 'The mail could not be sent.', code: 'mailNotSent' }),
    });
    await user.click(await screen.findByRole('button', { name: button }));
    expect(await screen.findByText((text) => text.startsWith(reason))).toBeTruthy();
  });
});

describe('support', () => {
  it('shows the hours and contacts, checks the form and sends a request', async () => {
    signedIn();
    let sent: SupportRequestCreate | undefined;
    const { user } = await renderPortal('/account/support', {
      'legacy.workers.client': client,
      'apollo.support.createRequest': async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { requestId: 'r1', reference: 'SR-20261123-0001', createdAt: '2026-11-23T00:00:00.000Z' },
          { status: 201 },
        );
      },
    });
    expect((await screen.findByTestId('support-hours')).textContent).toBe(
      'Support hours: Monday to Friday, 9 AM to 5 PM.',
    );
    expect(screen.getByRole('link', { name: 'support@compliance-portal.example' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getAllByText('Field must not be empty.')).toHaveLength(2);
    expect(sent).toBeUndefined();
    await user.type(screen.getByLabelText(/Subject/), 'Restore failed');
    await user.selectOptions(screen.getByLabelText('Area'), 'backup');
    await user.type(screen.getByLabelText(/Message/), 'The restore of Finance failed.');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect((await screen.findByTestId('request-sent')).textContent).toContain('SR-20261123-0001');
    expect(sent).toEqual({ subject: 'Restore failed', area: 'backup', message: 'The restore of Finance failed.' });
  });
});

describe('the support request’s checks', () => {
  it('give the generic messages: a subject and a message, at most 5000 characters', async () => {
    signedIn();
    let sent: SupportRequestCreate | undefined;
    const { user } = await renderPortal('/account/support', {
      'legacy.workers.client': client,
      'apollo.support.createRequest': async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { requestId: 'r1', reference: 'SR-20261123-0001', createdAt: '2026-11-23T00:00:00.000Z' },
          { status: 201 },
        );
      },
    });
    await user.type(await screen.findByLabelText(/Subject/), '   ');
    await user.click(screen.getByLabelText(/Message/));
    await user.paste('x'.repeat(5001));
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Field must not be empty.')).toBeTruthy();
    expect(screen.getByText('Value too long (at most 5000 characters).')).toBeTruthy();
    expect(sent).toBeUndefined();
  });
});

describe('account offline', () => {
  it('disables saving changed notification settings with the reason, and enables it online', async () => {
    signedIn();
    const { user } = await renderPortal('/account/settings', {
      'legacy.workers.client': client,
      'legacy.user.notifications': respond('legacy.user.notifications', {
        jobFailed: true,
        jobFinished: false,
        dailySummary: false,
        weeklyReport: true,
        licenseExpiry: true,
      }),
    });
    const save = await screen.findByRole('button', { name: 'Save' });
    await user.click(screen.getByRole('checkbox', { name: /A job run finished/ }));
    expectServerAction(save, false);
    setOnline(false);
    expectServerAction(save, true);
    // The draft is still edited offline; only saving needs the server.
    await user.click(screen.getByRole('checkbox', { name: /A job run failed/ }));
    expect(screen.getByTestId('unsaved')).toBeTruthy();
    setOnline(true);
    expectServerAction(save, false);
  });

  it('disables sending a support request with the reason, and enables it online', async () => {
    signedIn();
    await renderPortal('/account/support', { 'legacy.workers.client': client });
    const send = await screen.findByRole('button', { name: 'Send request' });
    expectServerAction(send, false);
    setOnline(false);
    expectServerAction(send, true);
    setOnline(true);
    expectServerAction(send, false);
  });
});

describe('imprint and help center', () => {
  it('shows the imprint, and finds help articles as one types', async () => {
    signedIn();
    const { user } = await renderPortal('/account/imprint', { 'legacy.workers.client': client });
    expect((await screen.findByTestId('imprint')).textContent).toContain('Commercial register');

    await renderPortal('/helpcenter', { 'legacy.workers.client': client });
    const search = await screen.findByLabelText('Search the help');
    await user.type(search, 'recovery codes');
    await waitFor(() => expect(screen.getByTestId('help-count').textContent).toBe('1 article matches.'));
    const topic = screen.getByTestId('topic-account');
    expect(within(topic).getByText('How does sign-in work?')).toBeTruthy();
    expect(screen.queryByTestId('topic-backup')).toBeNull();
    await user.clear(search);
    await user.type(search, 'zzzz');
    expect(screen.getByTestId('help-count').textContent).toBe('No topic matches “zzzz”.');
  });
});
