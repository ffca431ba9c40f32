// @vitest-environment node
/**
 * Connecting a tenant by admin consent in Chromium, against the real server in demo mode, whose
 * Microsoft 365 simulator is the identity platform: the administrator types a name and the app
 * registration's ID and secret of Adventure Works (the demo's tenant not yet connected), follows the
 * link to the simulator's admin consent page, signs in as the tenant's administrator, accepts, and
 * comes back to the portal's page, which shows the tenant connected and its connection test passed;
 * then consents again from the tenant's row and declines, in German. Every page at every breakpoint
 * without sideways scrolling or an axe violation.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_CLIENT_SECRET } from '../scripts/start-server.mjs';
import { de } from '../src/i18n/de';
import { en } from '../src/i18n/en';
import {
  accessibilityViolations,
  animationsSettled,
  chooseLanguage,
  layoutProblems,
  useBrowserSession,
} from './browser';
import { DEMO_PASSWORD } from './server';

/** The demo's tenant to connect by consent (seed.ts, DEMO_CONSENT_TENANT): its app registration and administrator. */
const ADVENTURE_WORKS = {
  tenantId: 'ad7e0a5c-3b2f-4c1d-8e9f-0a1b2c3d4e05',
  applicationId: '5e1f0a4b-6c2d-4e8f-9a31-0a1b2c3d4e05',
  administrator: 'adele@tad7e0a.onmicrosoft.com',
};

const session = useBrowserSession({ ownServer: true });

/**
 * With E2E_SCREENSHOT_DIR set, the page as it is now at 1440 and 390 px for a person to look at
 * (`<dir>/<name>-<width>.png`): an open dialog whole, else the whole page.
 */
async function screenshots(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const before = page.viewportSize();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await animationsSettled(page);
    const path = join(dir, `${name}-${width}.png`);
    const dialog = page.getByRole('dialog');
    if ((await dialog.count()) > 0) {
      // The dialog's body scrolls inside it: the window made as tall as its content needs.
      const hidden = await dialog.evaluate((element) =>
        Math.max(0, ...[...element.querySelectorAll('*')].map((e) => e.scrollHeight - e.clientHeight)),
      );
      await page.setViewportSize({ width, height: 900 + hidden });
      await animationsSettled(page);
      await dialog.screenshot({ path });
    } else await page.screenshot({ path, fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** Signs in on the simulator's admin consent page as the tenant's administrator, and answers it. */
async function consentAtMicrosoft(page: Page, decision: 'accept' | 'cancel') {
  await page.waitForURL((url) => url.pathname.endsWith('/v2.0/adminconsent'));
  await page.locator('#login').fill(ADVENTURE_WORKS.administrator);
  await page.locator('#passwd').fill(DEMO_PASSWORD);
  await page.locator('#submit').click();
  await page.locator(`#${decision}`).waitFor();
  if (decision === 'accept') {
    // The consent page names what is granted: the portal's permissions.
    expect(await page.locator('#permissions').textContent()).toContain('User.Read.All');
  }
  await page.locator(`#${decision}`).click();
  await page.waitForURL((url) => url.pathname === '/configuration/tenant-consent');
}

describe('connecting a tenant by admin consent', () => {
  it('connects Adventure Works through the simulator’s consent page and shows its connection test passed', async () => {
    // The simulator's certificate chains to the demo's own CA.
    const page = await session.newPage({ ignoreHTTPSErrors: true });
    await session.signIn('/configuration', { page });
    const tenants = page.getByRole('table', { name: en.configuration.tenants });
    await tenants.getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: en.tenantConnection.connect }).click();
    const dialog = page.getByRole('dialog', { name: en.tenantConnection.consentTitle });
    // The table's first page, sorted by name (User.Read.All is on the second since the archive reads calendars).
    await dialog
      .getByRole('table', { name: en.tenantConnection.permissions.table })
      .getByText('Calendars.Read', { exact: true })
      .waitFor();
    // The table's search filters it, and Enter there does not submit the consent form beside it.
    const search = dialog.getByRole('searchbox', { name: en.tenantConnection.permissions.search });
    await search.fill('Chat');
    await search.press('Enter');
    await dialog
      .getByRole('table', { name: en.tenantConnection.permissions.table })
      .getByText('Calendars.Read', { exact: true })
      .waitFor({ state: 'detached' });
    expect(await dialog.getByText('Field must not be empty.').count()).toBe(0);
    await search.fill('');
    await dialog
      .getByRole('table', { name: en.tenantConnection.permissions.table })
      .getByText('Calendars.Read', { exact: true })
      .waitFor();
    await screenshots(page, 'consent-form-en');
    expect(
      await layoutProblems(page, 'the admin consent dialog', { widths: [320, 390, 1440], axeAt: [320, 1440] }),
    ).toEqual([]);

    await dialog.getByLabel('Tenant name').fill('Adventure Works');
    await dialog.getByLabel('Application (client) ID').fill(ADVENTURE_WORKS.applicationId);
    await dialog.getByLabel('Client secret').fill(DEMO_CLIENT_SECRET);
    await dialog.getByRole('button', { name: en.tenantConnection.continue }).click();
    // The dialog now shows the link it got, under a title of its own.
    const linkDialog = page.getByRole('dialog', { name: en.tenantConnection.link.title });
    const link = linkDialog.getByTestId('consent-link');
    await link.waitFor();
    expect(await link.textContent()).toContain(ADVENTURE_WORKS.applicationId);
    expect(await link.textContent()).toContain(`${new URL(page.url()).origin}/configuration/tenant-consent`);
    await screenshots(page, 'consent-link-en');
    expect(await accessibilityViolations(page)).toEqual([]);

    const started = performance.now();
    await linkDialog.getByRole('button', { name: en.tenantConnection.link.go }).click();
    await consentAtMicrosoft(page, 'accept');
    const outcome = page.getByTestId('consent-outcome');
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.getAttribute('data-outcome')).toBe('granted');
    const result = page.getByTestId('connection-result');
    expect(await result.textContent()).toMatch(/^The connection to Adventure Works works \(\d+ ms\)\.$/);
    console.log(
      `admin consent in Chromium, from "Continue to Microsoft" to the connection test shown: ${Math.round(performance.now() - started)} ms`,
    );
    // The portal's permissions all granted by the consent: none missing.
    expect(await page.getByTestId('missing-permissions').count()).toBe(0);
    // Microsoft's answer is no longer in the address.
    expect(new URL(page.url()).search).toBe('');
    await screenshots(page, 'consent-granted-en');
    expect(await layoutProblems(page, 'the consent granted', { widths: [320, 390, 1440], axeAt: [320, 1440] })).toEqual(
      [],
    );

    await page.getByRole('link', { name: en.tenantConnection.callback.back }).click();
    const row = tenants.getByRole('row', { name: /Adventure Works/ });
    await row.waitFor();
    // Its ID is copied on demand, never shown among the names.
    expect(await row.textContent()).not.toContain(ADVENTURE_WORKS.tenantId);
    await row
      .getByRole('button', { name: `${en.common.copy}: ${en.configuration.tenantId} Adventure Works` })
      .waitFor();
    await screenshots(page, 'tenants-en');
  });

  it('consents again from the tenant’s row and tells a decline, in German', async () => {
    const page = await session.newPage({ ignoreHTTPSErrors: true });
    await page.goto('/signin');
    await session.signInAgain(page);
    await page.waitForURL((url) => !/^\/(signin|code-verification)/.test(url.pathname));
    await chooseLanguage(page, 'de');
    await page.goto('/configuration');
    const row = page
      .getByRole('table', { name: de.configuration.tenants })
      .getByRole('row', { name: /Adventure Works/ });
    await row.waitFor();
    await screenshots(page, 'tenants-de');
    // The form of every field, with each field's help in German.
    await page.getByRole('button', { name: de.configuration.addTenant }).click();
    const form = page.getByRole('dialog', { name: de.configuration.createTenant });
    await form.getByText(de.tenantConnection.fields.objectId).waitFor();
    await screenshots(page, 'manual-form-de');
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: de.common.cancel }).click();
    await form.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: de.tenantConnection.grantConsent }).click();
    const dialog = page.getByRole('dialog', {
      name: de.tenantConnection.renewTitle.replace('{{name}}', 'Adventure Works'),
    });
    await dialog.getByRole('button', { name: de.tenantConnection.continue }).click();
    const linkDialog = page.getByRole('dialog', { name: de.tenantConnection.link.title });
    await linkDialog.getByTestId('consent-link').waitFor();
    expect(await linkDialog.getByTestId('consent-link').textContent()).toContain(ADVENTURE_WORKS.tenantId);
    await screenshots(page, 'consent-link-de');
    await linkDialog.getByRole('button', { name: de.tenantConnection.link.go }).click();
    await page.waitForURL((url) => url.pathname === `/${ADVENTURE_WORKS.tenantId}/v2.0/adminconsent`);
    await consentAtMicrosoft(page, 'cancel');
    const outcome = page.getByTestId('consent-outcome');
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.getAttribute('data-outcome')).toBe('declined');
    expect(await outcome.textContent()).toContain(de.tenantConnection.callback.declinedText);
    await screenshots(page, 'consent-declined-de');
    expect(
      await layoutProblems(page, 'the consent declined', { widths: [320, 390, 1440], axeAt: [320, 1440] }),
    ).toEqual([]);
  });
});
