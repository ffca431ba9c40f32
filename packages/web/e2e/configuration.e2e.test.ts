// @vitest-environment node
/**
 * Configuration and partner setup end to end against their own server: a tenant connected through
 * the form, provisioned and deprovisioned with the task's progress shown until it ends; a location
 * used by a job refused; the connection test; both pages at every breakpoint without violations.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  completeQrSetup,
  launchBrowser,
  simulatorConsent,
  submitPassword,
  waitForText,
} from './browser';
import { DEMO_PASSWORD, type RunningServer, startServer } from './server';

const ADMIN = 'admin@contoso.example';
const PARTNER = 'partner@fabrikam.example';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.url, viewport: { width: 1350, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('configuration', () => {
  const name = `e2e-${Date.now()}.onmicrosoft.com`;

  it('connects a tenant, provisions and deprovisions it with the progress shown until each ends', async () => {
    await page.goto('/configuration');
    await page.waitForURL(/\/signin/);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await completeQrSetup(page);
    await page.waitForURL(/\/configuration/);
    await page.getByRole('button', { name: 'Add tenant' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Tenant name').fill(name);
    await dialog.getByLabel('Application (client) ID').fill(randomUUID());
    await dialog.getByLabel('Client secret').fill('e2e-secret');
    await dialog.getByLabel('Tenant ID').fill(randomUUID());
    await dialog.getByLabel('Object ID').fill(randomUUID());
    await dialog.getByLabel('Redirect URI').fill('https://portal.example/auth/callback');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page
      .getByRole('table', { name: 'Tenants' })
      .getByRole('row', { name: new RegExp(name.replace(/\./g, '\\.')) });
    await row.waitFor();

    await row.getByRole('button', { name: 'Provision' }).click();
    const progress = page.getByTestId('task-progress').filter({ hasText: `Provisioning of ${name}` });
    await progress.waitFor();
    await waitForText(progress.getByTestId('task-status'), /Done · 100 %/, 60_000);
    await waitForText(row, /Provisioned/, 30_000);

    await row.getByRole('button', { name: 'Deprovision' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Deprovision' }).click();
    const undo = page.getByTestId('task-progress').filter({ hasText: `Deprovisioning of ${name}` });
    await undo.waitFor();
    await waitForText(undo.getByTestId('task-status'), /Done · 100 %/, 60_000);
    await waitForText(row, /Not provisioned/, 30_000);

    // The demo tenant reaches the built-in Microsoft 365: its connection test passes.
    const active = page
      .getByRole('table', { name: 'Tenants' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Test connection' }) })
      .filter({ hasNot: page.getByRole('button', { name: 'Make active' }) });
    await active.getByRole('button', { name: 'Test connection' }).click();
    await waitForText(page.getByTestId('connection-result'), /works \(\d+ ms\)/);
    expect(await page.getByTestId('missing-permissions').count()).toBe(0);

    // Consent withdrawn in the tenant: the next test names what is missing and which area needs it.
    const tenantId = /[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}/.exec((await active.textContent()) ?? '')?.[0] ?? '';
    const granted = await simulatorConsent(server.url, tenantId);
    await simulatorConsent(
      server.url,
      tenantId,
      granted.filter((p) => p !== 'Chat.Read.All'),
    );
    await active.getByRole('button', { name: 'Test connection' }).click();
    const missing = page.getByRole('status', { name: 'Missing permissions' });
    await missing.waitFor();
    expect(await missing.getByRole('listitem').allTextContents()).toEqual(['Chat.Read.All needed by Chats']);
    for (const width of [320, 1350]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      expect(await accessibilityViolations(page)).toEqual([]);
    }
    await simulatorConsent(server.url, tenantId, granted);
    await active.getByRole('button', { name: 'Test connection' }).click();
    await missing.waitFor({ state: 'detached' });
  });

  it('refuses to delete a location a job uses', async () => {
    // A job that writes into the active tenant's first location, created through the API as the user.
    const made = await page.evaluate(async () => {
      const { apiKey } = (await (await fetch('/app-config.json')).json()) as { apiKey: string };
      const { token } = JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string };
      const headers = { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const tenants = (await (await fetch('/apollo-beta/api/Tenants', { headers })).json()) as {
        tenantId: string;
        isActive: boolean;
      }[];
      const tenantId = tenants.find((t) => t.isActive)?.tenantId ?? '';
      const locations = (await (await fetch(`/apollo-beta/api/${tenantId}/locations`, { headers })).json()) as {
        locationId: string;
        name: string;
      }[];
      const job = await fetch(`/apollo-beta/api/${tenantId}/jobs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'E2E job in the vault',
          type: 'exchangeArchive',
          application: 'exchange',
          // An account of the tenant's simulated Microsoft 365.
          sources: [`adele@t${tenantId.replace(/-/g, '').slice(0, 6)}.onmicrosoft.com`],
          locationId: locations[0]?.locationId,
        }),
      });
      return { status: job.status, location: locations[0]?.name ?? '' };
    });
    expect(made.status).toBe(200);
    await page.getByRole('tab', { name: 'Locations' }).click();
    const locations = page.getByRole('table', { name: 'Locations' });
    const used = locations.getByRole('row').filter({ hasText: made.location }).first();
    await used.waitFor();
    await used.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await waitForText(confirm.getByTestId('location-refusal'), /Cannot delete location as it is used for a job/);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(locations.getByRole('row').count()).resolves.toBeGreaterThan(1);
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    const problems: string[] = [];
    /** Each tab of the page (none: the page itself) at every width, in both languages. */
    const check = async (path: string, p: Page, expectedTabs: number) => {
      for (const language of ['en', 'de']) {
        await p.evaluate((lang) => localStorage.setItem('language', lang), language);
        await p.setViewportSize({ width: 1350, height: 900 });
        await p.goto(path);
        await p.getByRole('heading', { level: 1 }).waitFor();
        await p.waitForLoadState('networkidle');
        expect(await p.locator('html').getAttribute('lang')).toBe(language);
        const tabs = await p.getByRole('tab').count();
        expect(tabs).toBe(expectedTabs);
        for (let tab = 0; tab < Math.max(1, tabs); tab += 1) {
          const where = `${language} ${path}${tabs ? ` tab ${tab + 1}` : ''}`;
          if (tabs) {
            await p.setViewportSize({ width: 1350, height: 900 });
            await p.getByRole('tab').nth(tab).click();
            await p.waitForLoadState('networkidle');
          }
          for (const width of [320, 600, 900, 1200, 1350, 1536]) {
            await p.setViewportSize({ width, height: 900 });
            const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (overflow > 0) problems.push(`${where} at ${width}px scrolls sideways by ${overflow}px`);
            if (width === 320 || width === 1350)
              for (const v of await accessibilityViolations(p)) problems.push(`${where} at ${width}px: ${v}`);
          }
        }
      }
      await p.evaluate(() => localStorage.setItem('language', 'en'));
      await p.goto(path);
      await p.getByRole('heading', { level: 1 }).waitFor();
    };
    await check('/configuration', page, 4);
    // The partner's page, as a partner.
    const partnerContext = await browser.newContext({ baseURL: server.url, viewport: { width: 1350, height: 900 } });
    const partner = await partnerContext.newPage();
    await partner.goto('/partner-setup');
    await partner.waitForURL(/\/signin/);
    await submitPassword(partner, PARTNER, DEMO_PASSWORD);
    await completeQrSetup(partner);
    await partner.getByTestId('client-list').waitFor();
    await check('/partner-setup', partner, 0);

    // A client added through the form gets its worker; working as it opens its overview.
    await partner.setViewportSize({ width: 1350, height: 900 });
    const client = `E2E Client ${Date.now().toString(36)}`;
    await partner.getByRole('button', { name: 'Add a client' }).click();
    const dialog = partner.getByRole('dialog');
    await dialog.getByLabel(/Organisation name/).fill(client);
    await dialog.getByLabel(/Short name/).fill(`e2e-${Date.now().toString(36)}`.slice(0, 16));
    await dialog.getByLabel(/Administrator/).fill('it@e2e-client.example');
    await dialog.getByRole('button', { name: 'Add a client' }).click();
    await dialog.waitFor({ state: 'detached' });
    const table = partner.getByRole('table', { name: 'Client organisations' });
    await partner.getByRole('searchbox', { name: 'Search clients' }).fill(client);
    const row = table.getByRole('row').filter({ hasText: client });
    await waitForText(row, /Worker \S+/);
    await row.getByRole('button', { name: `Work as ${client}` }).click();
    await partner.waitForURL((url) => url.pathname === '/');
    const worker = (await partnerContext.cookies()).find((c) => c.name === 'worker');
    expect(JSON.parse(decodeURIComponent(worker?.value ?? '{}'))).toMatchObject({ organisationName: client });
    await partnerContext.close();
    expect(problems).toEqual([]);
  });
});
