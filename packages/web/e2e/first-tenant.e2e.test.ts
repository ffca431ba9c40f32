// @vitest-environment node
/**
 * From an empty portal to the first storage location, alone in the browser, on a server started as a
 * real installation is (PORTAL_DEMO=off, its own store in Azure Blob Storage, here Azurite): a new
 * organisation's administrator connects its first tenant, then opens Configuration > Locations in the
 * same tab and in a second one, neither reloaded nor signed in again, and finds the location form, not
 * "No Tenant was found". The locations say where their data goes and how their store's last test went;
 * the locations, the form and the setup guide fit 390 and 1440 px in English and German (screenshots
 * into SCREENSHOT_DIR when it is set).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@compliance-portal/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, type RunningAzurite, startAzurite } from '../scripts/start-server.mjs';
import { chooseLanguage, type Language, layoutProblems, useBrowserSession } from './browser';

let azurite: RunningAzurite | undefined;
// Before the session's own beforeAll (hooks run in the order they are registered): the server's store.
beforeAll(async () => {
  azurite = await startAzurite();
}, 120_000);
const store = () => {
  if (!azurite) throw new Error('Azurite is not running');
  return azurite;
};
const session = useBrowserSession({
  ownServer: () => ({
    demo: false,
    env: { PORTAL_BLOB_STORE: store().containerUrl('portal'), PORTAL_BLOB_STORE_KEY: store().accountKey },
  }),
});
afterAll(() => azurite?.stop());

const NO_TENANT = 'No Tenant was found in the Configuration. Please configure one.';
const EMAIL = `admin-${Date.now()}@litware.example`;

/** The organisation and its administrator as self-registration makes them, the address confirmed by its mailed link. */
async function registerAdmin(url: string, dataDir: string, email: string) {
  const { apiKey } = (await (await fetch(`${url}/app-config.json`)).json()) as { apiKey: string };
  const api = createClient({ origin: url, apiKey });
  await api.apollo.auth.register({ body: { email, password: DEMO_PASSWORD } });
  // The mail leaves after the answer: it is in the outbox (no SMTP server) within a moment.
  const outbox = join(dataDir, 'outbox');
  let query: string | undefined;
  for (let tries = 0; !query && tries < 300; tries += 1) {
    const mails = existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')) : [];
    for (const file of mails) {
      const mail = readFileSync(join(outbox, file), 'utf8')
        // Quoted-printable: soft line breaks and escaped characters.
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      // The link leads to the portal's confirmation page, with apollo confirmEmail's parameters.
      if (mail.includes(email)) query = /\/confirm-email\?(\S+)/.exec(mail)?.[1];
    }
    if (!query) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!query) throw new Error(`no confirmation mail for ${email} in ${outbox}`);
  const confirmed = await fetch(`${url}/apollo-beta/confirmEmail?${query}`);
  expect(confirmed.status).toBe(200);
}

/** The tenant form filled as an administrator does; the organisation is the signed-in one's. */
async function connectTenant(page: Page, name: string) {
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
}

async function addLocation(page: Page, fields: { name: string; siteAddress: string; secret?: string }) {
  await page.getByRole('button', { name: 'Add location' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Location name').fill(fields.name);
  await dialog.getByLabel('Site address').fill(fields.siteAddress);
  if (fields.secret) await dialog.getByLabel('Secret').fill(fields.secret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 60_000 });
}

/** Marks the page's document: a reload (or a navigation that loads the app again) loses the mark. */
const mark = (page: Page) => page.evaluate(() => document.documentElement.setAttribute('data-e2e-mark', 'kept'));
const marked = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-e2e-mark'));

describe('a new organisation’s first tenant, on an empty portal', () => {
  const tenantName = 'litware.onmicrosoft.com';

  it('opens the locations at once in the same tab and in a second one, without a reload or a new sign-in', async () => {
    const { page, context, server } = session;
    await registerAdmin(server.url, server.dataDir, EMAIL);
    await session.signIn('/configuration', { email: EMAIL });
    // A self-registered organisation is on a trial licence: its limits are shown once.
    await page.getByTestId('trial-dialog').getByRole('button').click();
    await page.getByTestId('trial-dialog').waitFor({ state: 'detached' });

    // Before a tenant, the locations say that one is needed: here, and in a second tab of the session.
    await page.getByRole('tab', { name: 'Locations' }).click();
    await page.getByText(NO_TENANT).waitFor();
    const second = await context.newPage();
    await second.goto('/configuration?tab=locations');
    await second.getByText(NO_TENANT).waitFor();
    await mark(page);
    await mark(second);

    await page.getByRole('tab', { name: 'Tenants' }).click();
    await connectTenant(page, tenantName);
    await page
      .getByRole('table', { name: 'Tenants' })
      .getByRole('row', { name: /litware\.onmicrosoft\.com/ })
      .waitFor();

    // The same tab: the locations and their form, not the dead end.
    await page.getByRole('tab', { name: 'Locations' }).click();
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.getByRole('dialog').getByLabel('Location name').waitFor();
    expect(await page.getByText(NO_TENANT).count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The second tab follows by itself.
    await second.getByRole('button', { name: 'Add location' }).click();
    await second.getByRole('dialog').getByLabel('Location name').waitFor();
    expect(await second.getByText(NO_TENANT).count()).toBe(0);
    await second.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect([await marked(page), await marked(second)]).toEqual(['kept', 'kept']);

    // The stored worker acts for the new tenant, and a reload keeps it so.
    const tenantId = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('worker') ?? '{}') as { tenant_id?: string }).tenant_id,
    );
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
    await second.reload();
    await second.getByRole('button', { name: 'Add location' }).waitFor();
    expect(await second.getByText(NO_TENANT).count()).toBe(0);
    await second.close();
  });

  it('says where each location’s data goes and how its store’s last test went', async () => {
    const { page } = session;
    await page.goto('/configuration?tab=locations');
    const address = `azure+${store().containerUrl('portal')}`;
    await addLocation(page, {
      name: 'Offsite archive',
      siteAddress: `${address}/locations/archive`,
      secret: store().accountKey,
    });
    await addLocation(page, {
      name: 'Offsite backups',
      siteAddress: `${address}/locations/backups`,
      secret: store().accountKey,
    });
    await addLocation(page, {
      name: 'Compliance site',
      siteAddress: 'https://litware.sharepoint.com/sites/compliance',
    });
    const table = page.getByRole('table', { name: 'Locations' });
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    await row('Compliance site').waitFor();

    const archive = row('Offsite archive');
    expect(await archive.getByTestId('location-store').textContent()).toBe(
      `Azure Blob Storage${store().containerUrl('portal')}/locations/archive/`,
    );
    expect(await archive.getByTestId('location-probe').textContent()).toMatch(/^WorksTested /);
    expect(await row('Compliance site').getByTestId('location-store').textContent()).toContain(
      'The portal’s own storeRun by the portal’s operator',
    );
    expect(await row('Compliance site').getByTestId('location-probe').textContent()).toBe('Not tested per location');

    // The store goes away: testing again records the failure and says why.
    await store().stop();
    await row('Offsite backups').getByRole('button', { name: 'Test the store of “Offsite backups”' }).click();
    await expect
      .poll(() => row('Offsite backups').getByTestId('location-probe').textContent(), { timeout: 60_000 })
      .toMatch(/^FailedTested .+The storage service could not be reached at the site address\./);
    expect(await archive.getByTestId('location-probe').textContent()).toMatch(/^WorksTested /);
  });

  it('fits 390 and 1440 px in English and German: the locations, their form and the setup guide', async () => {
    const { page } = session;
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) mkdirSync(dir, { recursive: true });
    const shoot = async (name: string, width: number, language: Language) => {
      if (dir) await page.screenshot({ path: join(dir, `${name}-${language}-${width}.png`), fullPage: true });
    };
    const texts = {
      en: { tab: 'Locations', add: 'Add location', address: 'Site address', guide: 'Set up the portal' },
      de: {
        tab: 'Speicherorte',
        add: 'Speicherort hinzufügen',
        address: 'Websiteadresse',
        guide: 'Das Portal einrichten',
      },
    } as const;
    const problems: string[] = [];
    for (const language of ['en', 'de'] as const) {
      await chooseLanguage(page, language);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/configuration?tab=locations');
        const table = page.getByRole('table', { name: texts[language].tab });
        await table.getByText('Compliance site').waitFor();
        problems.push(...(await layoutProblems(page, `${language} locations`, { widths: [width], axeAt: [width] })));
        await shoot('locations', width, language);

        await page.getByRole('button', { name: texts[language].add }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(texts[language].address).fill('https://litware.sharepoint.com/sites/records');
        await dialog.getByTestId('location-goes-to').waitFor();
        problems.push(
          ...(await layoutProblems(page, `${language} location form`, { widths: [width], axeAt: [width] })),
        );
        await shoot('location-form', width, language);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        await page.goto('/');
        await page.getByRole('heading', { name: texts[language].guide }).waitFor();
        problems.push(...(await layoutProblems(page, `${language} guide`, { widths: [width], axeAt: [width] })));
        await shoot('guide', width, language);
      }
    }
    await chooseLanguage(page, 'en');
    expect(problems).toEqual([]);
  });
});
