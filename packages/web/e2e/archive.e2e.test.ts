// @vitest-environment node
/**
 * The email archive and eDiscovery end to end, against their own server and the built-in Microsoft
 * 365 simulator: an archive job with a folder chosen by its path (a second time refused), run to the
 * end in the monitor; proxy rights refusing the owner and a holder, then giving the administrator a
 * mailbox beside the two the demo grants at set-up; a known mail found by a phrase and by its sender;
 * the search saved as a case whose export holds that mail as an .eml identical to the simulator's MIME.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../server/test/zip-reader';
import {
  ADMIN,
  animationsSettled,
  CONTOSO_TENANT,
  expectResponsiveAndAccessible,
  rowAction,
  runEnded,
  simulatorGraph,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: true, acceptDownloads: true });

describe('email archive and eDiscovery', () => {
  /** A mailbox the demo administrator holds no right to: the demo grants the first two at set-up. */
  let mailbox = '';
  /** The two mailboxes the archive job takes (the first two by name, both granted by the demo). */
  const archived: string[] = [];
  let subject = '';
  let sender = '';

  it('archives two mailboxes’ Inbox, the folder chosen by its path once only', async () => {
    const { page } = session;
    await session.signIn('/archive/jobs');
    await page.getByRole('button', { name: 'Create archive job' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Job name').fill('E2E mail');
    const rows = dialog.getByRole('row');
    await rows.nth(3).waitFor();
    mailbox = ((await rows.nth(3).getByRole('cell').nth(1).textContent()) ?? '').trim();
    for (const n of [1, 2]) archived.push(((await rows.nth(n).getByRole('cell').nth(1).textContent()) ?? '').trim());
    await rows.nth(1).getByRole('checkbox').check({ force: true });
    await rows.nth(2).getByRole('checkbox').check({ force: true });
    const folders = dialog.getByLabel('Folders');
    await folders.fill('Inbox');
    await folders.press('Enter');
    await folders.fill(' inbox/ ');
    await folders.press('Enter');
    await dialog.getByText('This folder name is already used').waitFor();
    await folders.fill('');
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /E2E mail/ });
    await expect(row.textContent()).resolves.toContain('Inbox');
    await row.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Start' }).click();
    await page.getByText('"E2E mail" started.').waitFor({ timeout: 60_000 });
    await page.goto('/archive/job-monitor');
    expect(await runEnded(page.getByRole('row', { name: /E2E mail/ }))).toMatch(/^finished(WithWarnings)?$/);
  });

  it('refuses the owner and a holder as proxy, and gives the administrator the mailbox', async () => {
    const { page } = session;
    await page.goto('/archive/proxy-rights');
    const choice = page.getByLabel('Mailbox');
    await choice.locator('option', { hasText: mailbox }).waitFor({ state: 'attached' });
    await choice.selectOption({ label: (await choice.locator('option', { hasText: mailbox }).textContent()) ?? '' });
    await page.getByTestId('no-holders').waitFor();
    await page.getByRole('button', { name: `Add ${mailbox}` }).click();
    await page.getByRole('alert').filter({ hasText: 'is the mailbox’s owner and reads it already' }).waitFor();
    await page.getByLabel('Search accounts and groups').fill('Contoso');
    const admin = page.getByRole('listitem').filter({ hasText: ADMIN });
    const adminName = ((await admin.textContent()) ?? '').split(ADMIN)[0]?.trim() ?? '';
    await page.getByRole('button', { name: `Add ${adminName}` }).click();
    await page.getByRole('button', { name: 'Grant' }).click();
    const holders = page.getByRole('table', { name: 'Who may read this archive' });
    await holders.getByText(adminName).waitFor();
    await page.getByRole('button', { name: `Add ${adminName}` }).click();
    await page.getByRole('alert').filter({ hasText: 'already holds the right' }).waitFor();
  });

  it('finds a known mail by a phrase and by its sender, and exports it as the original .eml', async () => {
    const { page } = session;
    await page.goto('/ediscovery/portal');
    // Mail only: the calendar events of the same mailboxes (searched by default) have their own test.
    await page.getByRole('checkbox', { name: 'Teams messages' }).uncheck({ force: true });
    await page.getByRole('checkbox', { name: 'Calendar events' }).uncheck({ force: true });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The two the demo granted (whose Inbox the job archived) and the one granted above.
    await expect(waitForText(page.getByTestId('searched-mailboxes'), /in 3 mailboxes/)).resolves.toBeTruthy();
    const first = page.getByRole('table', { name: 'Search results' }).getByRole('row').nth(1);
    subject = ((await first.getByRole('button').first().textContent()) ?? '').trim();
    // Cells: selection, subject and hits, kind, sender.
    sender = ((await first.getByRole('cell').nth(3).textContent()) ?? '').trim();
    expect(sender).toContain('@');
    const words = subject.split(' ').slice(0, 2).join(' ');

    const query = page.getByLabel('Search', { exact: true });
    await query.fill(`"${words}"`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('table', { name: 'Search results' }).getByRole('button', { name: subject }).waitFor();
    await query.fill(`from:${sender} "${words}"`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.getByRole('table', { name: 'Search results' }).getByRole('row').filter({ hasText: subject });
    await hit.first().waitFor();
    await expect(hit.first().textContent()).resolves.toContain(sender);

    await page.getByRole('button', { name: 'Save as case' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Case name').fill('Known mail');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const cases = page.getByRole('table', { name: 'Cases' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      rowAction(cases.getByRole('row', { name: /Known mail/ }), 'Export'),
    ]);
    const files = readZip(readFileSync((await download.path()) ?? ''));
    const manifest = files.get('manifest.csv')?.toString('utf8') ?? '';
    expect(manifest).toContain(subject);
    const eml = [...files.entries()].find(([name]) => name.endsWith('.eml') && name.includes(`/${subject}-`));
    expect(eml).toBeDefined();

    // The same message as Microsoft 365 (the simulator) gives it.
    const graph = await simulatorGraph(session.server.url, CONTOSO_TENANT);
    const users = await graph.json<{ value: { id: string; displayName: string }[] }>('/users');
    // The mail may sit in either archived mailbox's Inbox or a folder below it (the job took Inbox
    // with its subfolders).
    type Folder = { id: string; displayName: string };
    let found: { owner: string; id: string } | undefined;
    for (const owner of users.value.filter((u) => archived.includes(u.displayName))) {
      const top = await graph.json<{ value: Folder[] }>(`/users/${owner.id}/mailFolders`);
      const inbox = top.value.find((f) => f.displayName === 'Inbox');
      const below = await graph.json<{ value: Folder[] }>(`/users/${owner.id}/mailFolders/${inbox?.id}/childFolders`);
      for (const folder of [inbox, ...below.value]) {
        const messages = await graph.json<{ value: { id: string; subject: string }[] }>(
          `/users/${owner.id}/mailFolders/${folder?.id}/messages/delta`,
        );
        const message = messages.value.find((m) => m.subject === subject);
        if (message) found ??= { owner: owner.id, id: message.id };
      }
    }
    const mime = await graph.bytes(`/users/${found?.owner}/messages/${found?.id}/$value`);
    expect(eml?.[1].equals(mime)).toBe(true);

    // A case of one mailbox (a custodian) on legal hold shows its orange badge: the screens' sweep
    // below checks it with axe.
    await page.getByLabel('Mailbox', { exact: true }).selectOption({ index: 1 });
    await query.fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(waitForText(page.getByTestId('searched-mailboxes'), /in 1 mailbox\b/)).resolves.toBeTruthy();
    await page.getByRole('button', { name: 'Save as case' }).click();
    await dialog.getByLabel('Case name').fill('Held mail');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const held = cases.getByRole('row', { name: /Held mail/ });
    await rowAction(held, 'Put the case "Held mail" on legal hold');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Place legal hold', exact: true }).click();
    await expect(
      waitForText(held.getByTestId('hold-badge'), /^Legal holdOn hold since .+, \d+ items?Held by /),
    ).resolves.toBeTruthy();
  });

  it('archives a team and the chats of an account, and finds a chat message through that mailbox’s right', async () => {
    const { page } = session;
    await page.goto('/teams/jobs');
    await page.getByRole('button', { name: 'Create Teams archive job' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Job name').fill('E2E Teams');
    // While the dialog still grows in, a row may lie outside the viewport and cannot be scrolled to.
    await animationsSettled(page);
    const teams = dialog.getByRole('table', { name: 'Choose teams' });
    await teams.getByRole('row').nth(1).getByRole('checkbox').check({ force: true });
    const accounts = dialog.getByRole('table', { name: 'Choose accounts' });
    await accounts.getByRole('checkbox', { name: `Select ${mailbox}` }).check({ force: true });
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /E2E Teams/ });
    await row.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Start' }).click();
    await page.getByText('"E2E Teams" started.').waitFor({ timeout: 60_000 });
    await page.goto('/teams/job-monitor');
    expect(await runEnded(page.getByRole('row', { name: /E2E Teams/ }))).toMatch(/^finished(WithWarnings)?$/);

    // A message of one of that account's chats, as Microsoft 365 (the simulator) has it.
    const graph = await simulatorGraph(session.server.url, CONTOSO_TENANT);
    const users = await graph.json<{ value: { id: string; displayName: string }[] }>('/users');
    const owner = users.value.find((u) => u.displayName === mailbox);
    const chats = await graph.json<{ value: { id: string; topic: string | null }[] }>(`/users/${owner?.id}/chats`);
    const chat = chats.value.find((c) => c.topic) ?? chats.value[0];
    const messages = await graph.json<{ value: { body: { content: string } }[] }>(`/chats/${chat?.id}/messages`);
    const words = (messages.value[0]?.body.content ?? '')
      .replace(/<[^>]+>/g, '')
      .split(' ')
      .slice(0, 3)
      .join(' ');

    await page.goto('/ediscovery/portal');
    await page.getByRole('checkbox', { name: 'Mail' }).uncheck({ force: true });
    await page.getByLabel('Search', { exact: true }).fill(`"${words}"`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.getByRole('table', { name: 'Search results' }).getByRole('row').filter({ hasText: 'Teams chat' });
    await hit.first().waitFor();
    if (chat?.topic) await expect(hit.first().textContent()).resolves.toContain(chat.topic);
  });
});

describe('the archive, Teams and eDiscovery screens', () => {
  const PAGES = [
    '/archive/dashboard',
    '/archive/mailboxes',
    '/archive/jobs',
    '/archive/deletion-jobs',
    '/archive/job-monitor',
    '/archive/reports',
    '/archive/proxy-rights',
    '/teams/dashboard',
    '/teams/jobs',
    '/teams/job-monitor',
    '/teams/reporting',
    '/ediscovery/portal',
  ];

  it('fit every breakpoint without sideways scrolling and have no WCAG 2.1 A/AA violation', async () => {
    // The case put on legal hold above is among eDiscovery's cases, its badge with it.
    await session.page.goto('/ediscovery/portal');
    await session.page.getByTestId('hold-badge').first().waitFor();
    await expectResponsiveAndAccessible(session.page, PAGES);
  });
});
