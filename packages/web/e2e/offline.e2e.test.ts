// @vitest-environment node
/**
 * The portal as an installed app without a network: a signed-in administrator reads a dashboard and
 * a report, goes offline and reloads (warm service worker), restarts the browser offline (cold
 * service worker), and finds the shell and the saved report with the offline banner; logout empties
 * IndexedDB; the next user sees nothing of the first; a new build brings the update prompt.
 * A persistent browser profile stands in for the installed app.
 */

import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createClient, type PortalClient } from '@compliance-portal/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  CONTOSO_TENANT,
  layoutProblems,
  logOutThroughMenu,
  PARTNER,
  useBrowserSession,
  workAs,
} from './browser';

const DOMAIN = `t${CONTOSO_TENANT.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`;

let webDir: string;
const figures: string[] = [];

// A copy of the build, so that the update test can serve a new version of it (made before the
// session's server starts on it, removed after it stops).
beforeAll(() => {
  webDir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  cpSync(resolve(import.meta.dirname, '..', 'dist'), webDir, { recursive: true });
});
afterAll(() => {
  rmSync(webDir, { recursive: true, force: true });
  console.log(`offline figures:\n${figures.join('\n')}`);
});

/** A persistent browser profile stands in for the installed app. */
const session = useBrowserSession({ ownServer: () => ({ webDir }), persistent: true });

/** Rewrites a served file and the compressed copies the server prefers. */
function rewrite(path: string, text: string) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${path}.gz`, gzipSync(Buffer.from(text)));
}

/** The keys of the offline cache in IndexedDB, as the page sees them. */
function cacheKeys(target: Page): Promise<string[]> {
  return target.evaluate(
    () =>
      new Promise<string[]>((done, fail) => {
        const open = indexedDB.open('compliance-portal');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('query-cache')) {
            db.close();
            done([]);
            return;
          }
          const request = db.transaction('query-cache').objectStore('query-cache').getAllKeys();
          request.onsuccess = () => {
            db.close();
            done(request.result.map(String));
          };
          request.onerror = () => fail(request.error);
        };
      }),
  );
}

/** The saved queries' keys of the one entry, as JSON text, to wait for a page's data to be saved. */
function savedQueries(target: Page): Promise<string> {
  return target.evaluate(
    () =>
      new Promise<string>((done) => {
        const open = indexedDB.open('compliance-portal');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('query-cache')) return done('');
          const request = db.transaction('query-cache').objectStore('query-cache').getAll();
          request.onsuccess = () => done(JSON.stringify(request.result));
        };
        open.onerror = () => done('');
      }),
  );
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function sessionClient(target: Page): Promise<PortalClient> {
  const { server } = session;
  const config = (await (await fetch(`${server.url}/app-config.json`)).json()) as { apiKey: string };
  const stored = await target.evaluate(() => localStorage.getItem('user'));
  const { token } = JSON.parse(stored ?? '{}') as { token: string };
  return createClient({ origin: server.url, apiKey: config.apiKey, token });
}

/** One backup run of one account, so that the reports list has a finished report. */
async function runBackup(api: PortalClient) {
  const job = await api.apollo.jobs.create({
    tenantId: CONTOSO_TENANT,
    body: { name: 'Offline report', type: 'backup', application: 'onedrive', sources: [`adele@${DOMAIN}`] },
  });
  await api.apollo.jobs.start({ tenantId: CONTOSO_TENANT, jobId: job.jobId });
  await waitFor(async () => {
    const state = await api.apollo.jobs.get({ tenantId: CONTOSO_TENANT, jobId: job.jobId });
    if (state.status === 'failed') throw new Error('the backup failed');
    return state.status === 'finished';
  }, 'the backup run');
}

async function openReport(target: Page) {
  await target.getByRole('row').filter({ hasText: 'Offline report' }).first().click();
  await target.getByTestId('report-title').waitFor();
  // The run's one account, read from the server or from the saved data (not the "not saved" line).
  await target
    .getByRole('table', { name: 'Accounts of the run' })
    .getByRole('row')
    .filter({ hasText: `adele@${DOMAIN}` })
    .waitFor();
  expect(await target.getByTestId('table-offline').count()).toBe(0);
}

describe('installable', () => {
  it('has a manifest Chromium accepts: no installability error, icons 192 and 512 with a maskable one', async () => {
    const { context, page, server } = session;
    await page.goto('/signin');
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    // A second DevTools session on the page would keep it from seeing the offline emulation later.
    await cdp.detach();
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
      name: string;
      short_name: string;
      display: string;
      start_url: string;
      theme_color: string;
      background_color: string;
      icons: { sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Compliance Portal', display: 'standalone', start_url: '/' });
    expect(manifest.short_name && manifest.theme_color && manifest.background_color).toBeTruthy();
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
  });
});

describe('offline', () => {
  it('shows the saved report with the offline banner after a reload offline (warm service worker)', async () => {
    const { context, page } = session;
    await session.signIn('/signin', { landing: '/' });
    await page.getByTestId('area-backup').waitFor();
    await runBackup(await sessionClient(page));

    // Every dashboard and report list of the demo, then the backup report.
    for (const path of [
      '/dashboard',
      '/archive/dashboard',
      '/teams/dashboard',
      '/compliance/dashboard',
      '/reports',
      '/archive/reports',
      '/teams/reporting',
      '/compliance/reporting',
      '/backup-and-restore/dashboard',
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      // Saving is throttled to once a second: let it happen before the next page load.
      await page.waitForTimeout(1200);
    }
    await page.goto('/backup-and-restore/reports');
    await openReport(page);
    // The shell is precached and the report's accounts are saved.
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state;
    });
    await waitFor(async () => (await savedQueries(page)).includes('accounts'), 'the report saved in IndexedDB');
    await page.waitForTimeout(1500);
    const saved = JSON.parse(await savedQueries(page)) as { queries: { json: string }[] }[];
    const bytes = saved.reduce((sum, entry) => sum + entry.queries.reduce((n, q) => n + q.json.length, 0), 0);
    figures.push(
      `saved cache after every dashboard and report list of the demo and one report: ${saved[0]?.queries.length} queries, ${(bytes / 1024).toFixed(1)} KB`,
    );

    // The service worker caches hold the app shell only: no API answer.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.filter((path) => /^\/(api|apollo|apollo-beta)\/|app-config/.test(path))).toEqual([]);

    await context.setOffline(true);
    const started = Date.now();
    await page.reload();
    await page.getByTestId('offline-banner').waitFor();
    await openReport(page);
    figures.push(`warm service worker: reload to the saved report on screen in ${Date.now() - started} ms`);
    expect(await page.getByTestId('offline-banner').textContent()).toContain('You are offline.');
    expect(await page.getByTestId('offline-age').textContent()).toMatch(/^The data shown was saved /);
    // Actions that need the server are disabled, with the reason.
    const xlsx = page.getByRole('button', { name: 'xlsx' }).first();
    expect(await xlsx.isDisabled()).toBe(true);

    const problems = await layoutProblems(page, 'the saved report offline', {
      axeAt: [1536],
      atWidth: async () => expect(await page.getByTestId('offline-banner').isVisible()).toBe(true),
    });
    expect(problems).toEqual([]);

    // A dashboard opens from the saved data too.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('offline-banner').isVisible()).toBe(true);
  });

  it('opens offline after a browser restart with the stored user, without asking for a sign-in (cold service worker)', async () => {
    await session.restart();
    const { context, page } = session;
    await context.setOffline(true);
    const started = Date.now();
    await page.goto('/backup-and-restore/reports');
    await page.getByTestId('offline-banner').waitFor();
    await openReport(page);
    figures.push(
      `cold service worker (browser restarted): open to the saved report on screen in ${Date.now() - started} ms`,
    );
    expect(new URL(page.url()).pathname).toBe('/backup-and-restore/reports');

    // Back online: the banner goes and the data is read again.
    const refreshed = page.waitForResponse((r) => r.url().includes('/reporting') && r.ok());
    await context.setOffline(false);
    await refreshed;
    await page.getByTestId('offline-banner').waitFor({ state: 'detached' });
  });

  it('logout empties IndexedDB, and the next user on this browser sees nothing of the first', async () => {
    const { context, page } = session;
    expect((await cacheKeys(page)).length).toBe(1);
    await logOutThroughMenu(page);
    await waitFor(async () => (await cacheKeys(page)).length === 0, 'an empty offline cache');
    expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('worker')])).toEqual([
      null,
      null,
    ]);

    await session.signIn('/signin', { email: PARTNER, landing: '/partner-setup' });
    await workAs(page, 'Northwind Traders');
    await page.goto('/backup-and-restore/reports');
    await page.getByRole('table').first().waitFor();
    await waitFor(async () => (await cacheKeys(page)).length === 1, 'the partner’s entry');
    expect((await cacheKeys(page))[0]?.startsWith(`${PARTNER}\u0000`)).toBe(true);
    expect(await savedQueries(page)).not.toContain('Offline report');
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByText('Offline report').count()).toBe(0);
    await context.setOffline(false);
  });

  it('shows the update prompt when a new build is served, and reloads into it on accept', async () => {
    const { page, server } = session;
    await page.goto('/');
    const workerUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(workerUrl).toBe(`${server.url}/sw.js`);

    // A new build: a changed page, and the service worker that precaches it.
    const index = join(webDir, 'index.html');
    const html = readFileSync(index, 'utf8').replace('</head>', '<meta name="build" content="next" /></head>');
    rewrite(index, html);
    const revision = createHash('md5').update(html).digest('hex');
    const sw = join(webDir, 'sw.js');
    const script = readFileSync(sw, 'utf8').replace(/(\{url:"index\.html",revision:")[0-9a-f]+(")/, `$1${revision}$2`);
    expect(script).toContain(revision);
    rewrite(sw, script);

    await page.reload();
    const prompt = page.getByTestId('update-prompt');
    await prompt.waitFor({ timeout: 30_000 });
    expect(await prompt.textContent()).toContain('A new version of the portal is available.');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(() => document.querySelector('meta[name="build"]')?.getAttribute('content') === 'next');
    await page.getByTestId('update-prompt').waitFor({ state: 'detached' });
  });
});
