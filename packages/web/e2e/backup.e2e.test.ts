// @vitest-environment node
/**
 * The backup area end to end, against its own server (fresh demo accounts) and the built-in
 * Microsoft 365 simulator: a OneDrive backup of two accounts started from the jobs page, the monitor
 * reaching "finished", the run's report exported as xlsx and csv (files parsed), one file restored
 * into another account and read back from the simulator, and a trial client's second backup job
 * refused with the translated message.
 */
import { readFileSync } from 'node:fs';
import { errorMessages } from '@compliance-portal/sdk';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { read, utils } from 'xlsx';
import {
  Authenticator,
  accessibilityViolations,
  CONTOSO_TENANT,
  chooseLanguage,
  expectResponsiveAndAccessible,
  PARTNER,
  runEnded,
  simulatorGraph,
  useBrowserSession,
  waitForText,
  workAs,
} from './browser';
import { DEMO_PASSWORD } from './server';

const JOB_NAME = 'E2E/OneDrive';

const session = useBrowserSession({ ownServer: true, acceptDownloads: true });

describe('backup and restore', () => {
  const accounts: string[] = [];

  it('creates a OneDrive backup job for two accounts in the guided form and starts it', async () => {
    const { page } = session;
    await session.signIn('/backup-and-restore/backup-jobs');
    await page.getByTestId('table-empty').waitFor();

    await page.getByRole('button', { name: 'Create backup job' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('form-step').textContent()).resolves.toBe('Step 1 of 4: Application');
    await dialog.getByLabel('Job name').fill(JOB_NAME);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    await dialog.getByTestId('form-step').filter({ hasText: 'Sources' }).waitFor();
    const rows = dialog.getByRole('row');
    await rows.nth(2).waitFor();
    for (const index of [1, 2]) {
      const row = rows.nth(index);
      accounts.push((await row.getByRole('cell').nth(1).textContent())?.trim() ?? '');
      await row.getByRole('checkbox').check({ force: true });
    }
    await expect(dialog.getByTestId('selected-count').textContent()).resolves.toBe('2 selected');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByTestId('form-step').filter({ hasText: 'Schedule' }).waitFor();
    await dialog.getByLabel('Recurrence').selectOption('weekly');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByTestId('form-step').filter({ hasText: 'Retention' }).waitFor();
    await dialog.getByLabel('Unit').selectOption('months');
    await dialog.getByLabel('Number').fill('6');
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: new RegExp(JOB_NAME) });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/Weekly/);
    // The retention shows from 1536 px; narrower, the Columns menu brings it back.
    await page.getByRole('button', { name: 'Choose the columns of Backup jobs' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Retention' }).click();
    await page.keyboard.press('Escape');
    await expect(row.textContent()).resolves.toMatch(/Weekly.*6 months/);
    await row.getByRole('button', { name: 'Start' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.textContent()).resolves.toContain(`Start "${JOB_NAME}"?`);
    await confirm.getByRole('button', { name: 'Start' }).click();
    await page.getByText(`"${JOB_NAME}" started.`).waitFor({ timeout: 60_000 });
  });

  it('watches the run in the job monitor until it finishes, then stops polling', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Job monitor' }).first().click();
    await page.waitForURL(/job-monitor/);
    const row = page.getByRole('row', { name: new RegExp(JOB_NAME) });
    await row.waitFor();
    expect(await runEnded(row)).toMatch(/^finished(WithWarnings)?$/);
    await waitForText(page.getByTestId('monitor-polling'), /Nothing is running/);
    await row.click();
    const drawer = page.getByRole('dialog');
    for (const name of accounts) await drawer.getByRole('cell', { name }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('opens the run’s report and exports it as xlsx and csv with the same rows', async () => {
    const { page } = session;
    await page.goto('/backup-and-restore/reports');
    await page.getByRole('row', { name: new RegExp(JOB_NAME) }).click();
    // The heading names the job; its run's dates stand under it. The export is named after the
    // report's title: the job and when its run started (UTC, as the server gives it).
    expect(((await page.getByTestId('report-title').textContent()) ?? '').trim()).toBe(JOB_NAME);
    for (const name of accounts) await page.getByRole('cell', { name }).waitFor();

    const [xlsxDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export xlsx' }).click(),
    ]);
    // "/" becomes "_" (section 9), as do the characters file systems and Excel refuse (the time's ":").
    const expectedBase = xlsxDownload.suggestedFilename().replace(/\.xlsx$/, '');
    expect(expectedBase).toMatch(/^E2E_OneDrive \d{4}-\d{2}-\d{2} \d{2}_\d{2}$/);
    const book = read(readFileSync((await xlsxDownload.path()) ?? ''));
    expect(book.SheetNames).toEqual([expectedBase.slice(0, 31)]);
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    const table = utils.sheet_to_json<unknown[]>(sheet ?? {}, { header: 1 });
    expect(table[0]).toEqual(['Account', 'Status', 'Items changed', 'Failures', 'Data read (bytes)', 'Errors']);
    expect(table.slice(1).map((r) => r[0])).toEqual([...accounts].sort((a, b) => a.localeCompare(b)));
    expect(table.slice(1).every((r) => r[1] === 'Finished' && Number(r[2]) > 0 && Number(r[4]) > 0)).toBe(true);

    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export csv' }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toBe(`${expectedBase}.csv`);
    const text = readFileSync((await csvDownload.path()) ?? '', 'utf8').replace(/^\uFEFF/, '');
    const csv = Papa.parse<string[]>(text.trim()).data;
    // No header row: the first line is the first account.
    expect(csv.map((r) => r[0])).toEqual(table.slice(1).map((r) => r[0]));
    expect(csv.map((r) => r.slice(1, 5).join(','))).toEqual(table.slice(1).map((r) => r.slice(1, 5).join(',')));
  });

  it('restores one file into another account, and the simulator has the same bytes there', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Restore' }).first().click();
    await page.waitForURL(/restore/);
    await page.getByLabel('Backup job').selectOption({ label: `${JOB_NAME} (OneDrive)` });
    const [source, target] = accounts;
    await page.getByLabel('Source').selectOption({ label: source ?? '' });
    const snapshot = page.getByLabel('Snapshot date');
    await snapshot.locator('option').nth(1).waitFor({ state: 'attached' });
    await snapshot.selectOption({ index: 1 });
    await page.getByTestId('open-node').first().click();
    const folder = ((await page.getByTestId('current-folder').textContent()) ?? '').trim();
    // The folder's own rows: its listing has loaded (the table is no longer busy) after the trail shows it.
    await page.locator('[role="region"][aria-busy="true"]').waitFor({ state: 'detached' });
    const fileRow = page.getByRole('row').filter({ hasText: 'File' }).first();
    const fileName = ((await fileRow.getByRole('cell').nth(1).textContent()) ?? '').trim();
    await fileRow.getByRole('checkbox').check({ force: true });
    await expect(page.getByTestId('restore-selection').textContent()).resolves.toBe('1 item selected');
    await page.getByText('Another account or site').click();
    await page.getByLabel('Account or site to restore into').selectOption({ label: target ?? '' });
    await page.getByText('Keep both').click();
    await page.getByRole('button', { name: 'Restore…', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.textContent()).resolves.toContain(`Into ${target}`);
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await waitForText(page.getByTestId('restore-progress'), /100%/, 120_000);

    const graph = await simulatorGraph(session.server.url, CONTOSO_TENANT);
    const users = await graph.json<{ value: { id: string; displayName: string }[] }>('/users');
    const idOf = (name: string | undefined) => users.value.find((u) => u.displayName === name)?.id ?? '';
    const sourceDrive = await graph.json<{ id: string }>(`/users/${idOf(source)}/drive`);
    const targetDrive = await graph.json<{ id: string }>(`/users/${idOf(target)}/drive`);
    const path = encodeURI(`${folder}/${fileName}`);
    const original = await graph.json<{ id: string }>(`/drives/${sourceDrive.id}/root:/${path}`);
    if (!original.id) {
      // Seen once under load: the page listed a file under a folder that does not hold it. Say what it holds.
      const children = await graph.json<{ value?: { name: string }[] }>(
        `/drives/${sourceDrive.id}/root:/${encodeURI(folder)}:/children`,
      );
      expect.fail(
        `the page listed ${fileName} in ${folder}; the source's ${folder} holds: ${(children.value ?? []).map((c) => c.name).join(', ')}`,
      );
    }
    const restored = await graph.json<{ id: string }>(`/drives/${targetDrive.id}/root:/${path}`);
    if (!restored.id) {
      // Seen once in a full run (not reproduced since): say what the target holds and what the page shows.
      const children = await graph.json<{ value?: { name: string }[] }>(
        `/drives/${targetDrive.id}/root:/${encodeURI(folder)}:/children`,
      );
      const names = (children.value ?? []).map((c) => c.name).join(', ');
      const shown = await page.getByRole('main').textContent();
      expect.fail(`${folder}/${fileName} not in ${target}'s drive; its ${folder} holds: ${names}; the page: ${shown}`);
    }
    const before = await graph.bytes(`/drives/${sourceDrive.id}/items/${original.id}/content`);
    const after = await graph.bytes(`/drives/${targetDrive.id}/items/${restored.id}/content`);
    expect(after.length).toBeGreaterThan(0);
    expect(after.equals(before)).toBe(true);
  });
});

describe('the backup screens', () => {
  const PAGES = ['dashboard', 'backup-jobs', 'restore', 'job-monitor', 'reports'].map(
    (name) => `/backup-and-restore/${name}`,
  );

  it('fit every breakpoint without sideways scrolling and have no WCAG 2.1 A/AA violation', async () => {
    const { page } = session;
    await expectResponsiveAndAccessible(page, PAGES);
    await page.goto('/backup-and-restore/backup-jobs');
    await page.getByRole('button', { name: 'Create backup job' }).click();
    await page.getByRole('dialog').getByLabel('Job name').waitFor();
    const jobForm = await accessibilityViolations(page);
    await page.keyboard.press('Escape');
    expect(jobForm).toEqual([]);
  });

  it('sorts and pages by keyboard', async () => {
    const { page } = session;
    await page.goto('/backup-and-restore/reports');
    const sort = page.getByRole('button', { name: 'Sort by Report' });
    await sort.focus();
    const order = () => page.getByRole('columnheader', { name: /Report/ }).getAttribute('aria-sort');
    await page.keyboard.press('Enter');
    // The sort goes into the address first, then the table follows it.
    await expect.poll(order).toBe('ascending');
    const params = () => Object.fromEntries(new URL(page.url()).searchParams);
    expect(params()).toMatchObject({ sort: 'jobName', order: 'asc' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Sort by Report');
    await page.keyboard.press('Enter');
    await expect.poll(order).toBe('descending');
    // Descending is the reports' default order, so the address leaves it out.
    expect(params()).toEqual({ sort: 'jobName' });
  });
});

describe('a trial client', () => {
  it('sees its limits, and a second OneDrive backup job is refused with the translated message', async () => {
    const partner = await session.newPage({ viewport: { width: 900, height: 900 } });
    await partner.goto('/signin');
    await chooseLanguage(partner, 'de');
    await partner.reload();
    await partner.getByLabel('E-Mail-Adresse').fill(PARTNER);
    await partner.getByLabel('Passwort').fill(DEMO_PASSWORD);
    await partner.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await partner.waitForURL(/\/qr-setup/);
    const key = (await partner.getByTestId('manual-key').textContent())?.trim() ?? '';
    expect(key).not.toBe('');
    // The setup the English tests walk through, with the German texts.
    const authenticator = new Authenticator(key);
    await partner.getByLabel('6-stelliger Code').fill(await authenticator.nextCode());
    await partner.getByRole('button', { name: 'Bestätigen' }).click();
    await partner.getByTestId('recovery-saved').click();
    await partner.waitForURL(/\/partner-setup/);
    await workAs(partner, 'Tailspin Toys', 'Als Tailspin Toys arbeiten');
    await partner.getByRole('button', { name: 'Verstanden' }).click();
    await partner.goto('/backup-and-restore/backup-jobs');
    await partner.getByTestId('trial-limits').waitFor();

    // The form is opened while OneDrive has no job yet...
    await partner.getByRole('button', { name: 'Sicherungsauftrag anlegen' }).click();
    const dialog = partner.getByRole('dialog');
    await dialog.getByLabel('Name des Auftrags').fill('Zweiter Auftrag');
    await dialog.getByRole('button', { name: 'Weiter' }).click();
    const rows = dialog.getByRole('row');
    await rows.nth(1).waitFor();
    await rows.nth(1).getByRole('checkbox').check({ force: true });
    // ...then one is created elsewhere (another administrator, another tab).
    const created = await partner.evaluate(async () => {
      const config = (await (await fetch('/app-config.json')).json()) as { apiKey: string };
      const worker = JSON.parse(
        decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith('worker='))
            ?.slice(7) ?? '{}',
        ),
      ) as { tenant_id: string };
      const user = JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string };
      const locations = (await (
        await fetch(`/apollo-beta/api/${worker.tenant_id}/locations`, {
          headers: { 'x-api-key': config.apiKey, authorization: `Bearer ${user.token}` },
        })
      ).json()) as { locationId: string }[];
      const response = await fetch(`/apollo-beta/api/${worker.tenant_id}/jobs`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': config.apiKey,
          authorization: `Bearer ${user.token}`,
        },
        body: JSON.stringify({
          name: 'Erster Auftrag',
          type: 'backup',
          application: 'onedrive',
          // An account of the trial client's simulated Microsoft 365.
          sources: [`adele@t${worker.tenant_id.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`],
          locationId: locations[0]?.locationId,
        }),
      });
      return response.status;
    });
    expect(created).toBe(200);
    for (const step of ['Zeitplan', 'Aufbewahrung']) {
      await dialog.getByRole('button', { name: 'Weiter' }).click();
      await dialog.getByTestId('form-step').filter({ hasText: step }).waitFor();
    }
    await dialog.getByRole('button', { name: 'Auftrag anlegen' }).click();
    // The server refused it, and the form says why, in German.
    await dialog.getByRole('alert').filter({ hasText: errorMessages.trialBackupJobs.de }).waitFor();
    await expect(dialog.getByRole('alert').first().textContent()).resolves.not.toMatch(/trial licence/);
    await partner.context().close();
  });
});
