// @vitest-environment node
/**
 * Administration in the browser, against a server of its own: the users list (a user invited, who
 * accepts by the mailed link and sets up the authenticator; deactivated, which signs them out and
 * refuses their sign-in in words; reactivated), the audit log (filtered, exported as csv and xlsx,
 * its chain verified) and the account's sessions (one opened in a second browser context signed out,
 * which then finds itself signed out). Each screen is photographed at 1440 and 390 px in English and
 * German (into E2E_SCREENSHOTS, or a temporary directory that is named in the output).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Authenticator,
  chooseLanguage,
  completeQrSetup,
  expectResponsiveAndAccessible,
  type Language,
  rowAction,
  screenshotDirectory,
  submitCode,
  submitPassword,
  useBrowserSession,
  waitForText,
} from './browser';

const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-administration-'));
const session = useBrowserSession({ ownServer: () => ({ dataDir }), acceptDownloads: true });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const SHOTS = screenshotDirectory('administration');

const INVITEE = 'e2e.invitee@contoso.example';
const INVITEE_PASSWORD = 'Invitee-Passw0rd!';
/** The second browser of the sessions test: a phone, as its user agent says. */
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The invitation link of the last mail to `to` in the server's outbox (written after the answer). */
async function invitationPath(to: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 100; attempt++) {
    const files = (() => {
      try {
        return readdirSync(outbox).filter((f) => f.endsWith('.eml'));
      } catch {
        return [];
      }
    })().sort();
    for (const file of files.reverse()) {
      // Quoted-printable: soft line breaks joined again.
      const mail = readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
      const link = /\/invitation\/([A-Za-z0-9_-]+)/.exec(mail);
      if (mail.includes(to) && link) return `/invitation/${link[1]}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation mail to ${to}`);
}

/**
 * Photographs the page at 1440 and 390 px in English and German; `ready` brings it (after each load
 * in the language) to the state to photograph.
 */
async function photograph(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  const before = page.viewportSize();
  for (const language of ['en', 'de'] as Language[]) {
    await chooseLanguage(page, language);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await ready(page);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(SHOTS, `${name}-${language}-${width}.png`), fullPage: true });
    }
  }
  await chooseLanguage(page, 'en');
  if (before) await page.setViewportSize(before);
  await page.reload();
}

const usersTab = async (page: Page) => {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByRole('tab').nth(2).click();
  await page.getByRole('table').first().getByRole('row').nth(1).waitFor();
};

describe('administration', () => {
  let invitee: Page;
  let inviteeAuthenticator: Authenticator;

  it('invites a user, who accepts and sets up the authenticator; deactivates them (signed out, sign-in refused) and reactivates', {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    await session.signIn('/configuration');
    await page.getByRole('tab', { name: 'Users' }).click();
    const table = page.getByRole('table', { name: 'Portal users' });
    await table.getByRole('row').filter({ hasText: 'admin@contoso.example' }).waitFor();

    await page.getByRole('button', { name: 'Invite a user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a portal user' });
    await dialog.getByLabel('Email').fill(INVITEE);
    await dialog.getByLabel('Name').fill('Erika Mustermann');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText(`${INVITEE} was invited by mail.`).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Erika Mustermann' });
    await waitForText(row, /Invited/, 30_000);
    await expect(row.textContent()).resolves.toMatch(/Never/);

    // The invitee, in a browser of their own, follows the mailed link.
    invitee = await session.newPage();
    const link = await invitationPath(INVITEE);
    await invitee.goto(link);
    await invitee
      .getByText(`You were invited to the compliance portal of Contoso as Erika Mustermann (${INVITEE}).`)
      .waitFor();
    await photograph(invitee, 'invitation', (p) => p.getByRole('heading', { level: 1 }).waitFor());
    await invitee.getByLabel('New password', { exact: false }).fill(INVITEE_PASSWORD);
    await invitee.getByLabel('Confirm', { exact: false }).fill(INVITEE_PASSWORD);
    await invitee.getByRole('button', { name: 'Set the password and continue' }).click();
    ({ authenticator: inviteeAuthenticator } = await completeQrSetup(invitee));
    await invitee.waitForURL((url) => url.pathname === '/');

    await page.reload();
    await page.getByRole('tab', { name: 'Users' }).click();
    await waitForText(row, /Active/, 30_000);
    await expect(row.textContent()).resolves.toMatch(/Set up/);

    await photograph(page, 'users', usersTab);
    await page.getByRole('tab', { name: 'Users' }).click();

    // Deactivated: asked first; the invitee's session ends and the sign-in says why.
    await rowAction(row, 'Deactivate…');
    const confirm = page.getByRole('alertdialog', { name: 'Deactivate Erika Mustermann?' });
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await waitForText(row, /Deactivated/, 30_000);
    // Its next request is refused (the reports read the apollo API, whose 401 ends the session here).
    await invitee.goto('/reports');
    await invitee.waitForURL(/\/signin/, { timeout: 30_000 });
    await submitPassword(invitee, INVITEE, INVITEE_PASSWORD);
    await waitForText(
      invitee.getByTestId('signin-error'),
      /This account has been deactivated\. Ask an administrator of your organisation to reactivate it\./,
      30_000,
    );

    await row.getByRole('button', { name: 'Reactivate' }).click();
    await waitForText(row, /Active/, 30_000);
    await submitPassword(invitee, INVITEE, INVITEE_PASSWORD);
    await submitCode(invitee, inviteeAuthenticator);
    await invitee.waitForURL((url) => url.pathname === '/');
  });

  it('shows the audit log in words, filters it, exports it and verifies its chain', { timeout: 300_000 }, async () => {
    const { page } = session;
    await page.goto('/configuration');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/configuration\/audit-log/);
    await waitForText(
      page.getByTestId('audit-chain'),
      /Verified: all [\d,]+ entries of this organisation match the chain\./,
    );
    const table = page.getByRole('table', { name: 'Audit log entries' });
    await table.getByRole('row').nth(1).waitFor();

    await page.getByLabel('What').selectOption('user.');
    await page.waitForURL(/action=user\./);
    const rows = table.getByRole('row');
    await waitForText(rows.nth(1), /User reactivated/);
    const texts = await rows.allTextContents();
    for (const action of ['User reactivated', 'User deactivated', 'Invitation accepted', 'User invited']) {
      expect(
        texts.some((t) => t.includes(action) && t.includes('Erika Mustermann')),
        action,
      ).toBe(true);
    }
    // Who did it, by name; the invitee accepted the invitation themselves.
    expect(texts.find((t) => t.includes('User deactivated'))).toMatch(/Contoso Administrator/);
    await page.getByLabel('Who (name or address)').fill('e2e.invitee');
    await page.waitForURL(/actor=e2e\.invitee/);
    await waitForText(rows.nth(1), /Invitation accepted/);
    expect(await rows.count()).toBe(2);

    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export csv' }).click();
    const file = await (await csv).path();
    const lines = readFileSync(file, 'utf8').replace('\uFEFF', '').trim().split('\r\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /,Erika Mustermann,e2e\.invitee@contoso\.example,Invitation accepted,user\.invitation\.accept,Erika Mustermann,/,
    );
    const xlsx = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export xlsx' }).click();
    expect((await xlsx).suggestedFilename()).toBe('Audit log.xlsx');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => !url.search.includes('actor'));

    await photograph(page, 'audit-log', async (p) => {
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.getByTestId('audit-chain-verified').waitFor();
      await p.getByRole('table').getByRole('row').nth(1).waitFor();
    });
    await expectResponsiveAndAccessible(page, ['/configuration/audit-log'], {
      languages: ['en', 'de'],
      ready: (p) => p.getByTestId('audit-chain-verified').waitFor(),
    });
  });

  it('signs out a session opened in a second browser, which then finds itself signed out', {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    const phone = await session.newPage({ userAgent: IPHONE, viewport: { width: 390, height: 844 } });
    await phone.goto('/signin');
    await session.signInAgain(phone);
    await phone.waitForURL((url) => url.pathname === '/');

    await page.goto('/account/settings?tab=activity');
    const list = page.getByRole('list', { name: 'Sessions' });
    const current = list.getByTestId('session').and(page.locator('[data-current="true"]'));
    await waitForText(current, /This session/);
    const other = list.getByTestId('session').filter({ hasText: 'Safari 17 on iOS 17.5' });
    await waitForText(other, /Phone · Signed in .* with password · last active .* · from 127\.0\.0\.1/);
    expect(await current.getByRole('button').count()).toBe(0);

    await photograph(page, 'sessions', async (p) => {
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.getByTestId('session').nth(1).waitFor();
    });

    await other.getByRole('button', { name: /^Sign out Safari 17 on iOS 17\.5/ }).click();
    await page
      .getByRole('alertdialog', { name: 'Sign out this session?' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await page.getByText('The session was signed out.').waitFor();
    await other.waitFor({ state: 'detached' });

    // The phone's next request is refused: it is sent to sign in again.
    await phone.goto('/reports');
    await phone.waitForURL(/\/signin/, { timeout: 30_000 });
    // The administrator's own session is still signed in.
    await page.goto('/reports');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reports');
  });

  it('fits every breakpoint and has no WCAG 2.1 A/AA violation on the users tab and the sessions, in English and German', {
    timeout: 300_000,
  }, async () => {
    const { page } = session;
    await expectResponsiveAndAccessible(page, ['/configuration'], {
      languages: ['en', 'de'],
      ready: usersTab,
    });
    await expectResponsiveAndAccessible(page, ['/account/settings?tab=activity'], {
      languages: ['en', 'de'],
      ready: (p) => p.getByTestId('session').first().waitFor(),
    });
  });
});
