// @vitest-environment node
/**
 * Configuration and partner setup end to end against their own server: a tenant connected through
 * the form, provisioned and deprovisioned with the task's progress shown until it ends; a location
 * used by a job refused; the connection test; both pages at every breakpoint without violations.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CONTOSO_TENANT,
  expectResponsiveAndAccessible,
  layoutProblems,
  PARTNER,
  rowAction,
  simulatorConsent,
  useBrowserSession,
  waitForText,
  workAs,
} from './browser';

const session = useBrowserSession({ ownServer: true });

describe('configuration', () => {
  const name = `e2e-${Date.now()}.onmicrosoft.com`;

  it('connects a tenant, provisions and deprovisions it with the progress shown until each ends', async () => {
    const { page, server } = session;
    await session.signIn('/configuration');
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

    await rowAction(row, 'Provision');
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
    // The active tenant is the demo's Contoso (its ID is behind a Copy button, not in the row's text).
    const tenantId = CONTOSO_TENANT;
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
    expect(await layoutProblems(page, 'missing permissions', { widths: [320, 1350] })).toEqual([]);
    await simulatorConsent(server.url, tenantId, granted);
    await active.getByRole('button', { name: 'Test connection' }).click();
    await missing.waitFor({ state: 'detached' });
  });

  it('refuses to delete a location a job uses', async () => {
    const { page } = session;
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
    await rowAction(used, 'Delete…');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await waitForText(confirm.getByTestId('location-refusal'), /Cannot delete location as it is used for a job/);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(locations.getByRole('row').count()).resolves.toBeGreaterThan(1);
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    const { page } = session;
    // Each tab of the page (none: the page itself) at every width, in both languages.
    await expectResponsiveAndAccessible(page, ['/configuration'], { languages: ['en', 'de'], tabs: 4 });
    // The partner's page, as a partner.
    const partner = await session.newPage();
    await session.signIn('/partner-setup', { email: PARTNER, page: partner });
    await partner.getByTestId('client-list').waitFor();
    await expectResponsiveAndAccessible(partner, ['/partner-setup'], { languages: ['en', 'de'], tabs: 0 });
    await partner.goto('/partner-setup');
    await partner.getByRole('heading', { level: 1 }).waitFor();

    // A client added through the form gets its worker; working as it opens its overview.
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
    // Its tenant is not connected yet; the list never shows the worker's address.
    await waitForText(row, /No tenant connected/);
    expect(await row.textContent()).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    await workAs(partner, client);
    await partner.waitForURL((url) => url.pathname === '/');
    const worker = (await partner.context().cookies()).find((c) => c.name === 'worker');
    expect(JSON.parse(decodeURIComponent(worker?.value ?? '{}'))).toMatchObject({ organisationName: client });
    await partner.context().close();
  });
});
