// @vitest-environment node
/**
 * The connection test walked through every cause of a Microsoft 365 failure, in Chromium against the
 * built server: the demo simulator's refusals on purpose (each AADSTS code of the token endpoint,
 * consent, a permission missing, throttling with Retry-After, an outage), and three tenants pointed by
 * the operator's `tenant:endpoints` at this side's own faults (a name under .invalid, a closed port,
 * a TLS server of a CA the portal does not trust). Each cause's sentence is read in English and German,
 * "Copy details" puts Microsoft's ids on the clipboard by keyboard, and the result is photographed at
 * 1440 and 390 px and checked for sideways scrolling and WCAG violations.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  englishErrorMessages,
  germanErrorMessages,
  type Language,
  type Microsoft365FailureCode,
} from '@compliance-portal/sdk';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/test-ports.mjs';
import { launchBrowser } from '../scripts/browser.mjs';
import { type RunningServer, startServer } from '../scripts/start-server.mjs';
import {
  ADMIN,
  type Authenticator,
  CONTOSO_TENANT,
  completeQrSetup,
  layoutProblems,
  simulatorConsent,
  simulatorThrottle,
  simulatorTokenFault,
  submitCode,
  submitPassword,
} from './browser';
import { DEMO_PASSWORD } from './server';

const packages = resolve(import.meta.dirname, '..', '..');
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'portal-e2e-screenshots', 'm365-diagnosis');
const WIDTHS = [1440, 390] as const;

/** The connection test's title for a tenant, as each language words it. */
const TITLE: Record<Language, (name: string) => string> = {
  en: (name) => `The connection to ${name} failed.`,
  de: (name) => `Die Verbindung zu ${name} ist fehlgeschlagen.`,
};

/** The Microsoft 365 simulator run as its command with a data directory (and so a CA) of its own. */
async function untrustedTlsServer(dataDir: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      join(packages, 'm365-simulator', 'dist', 'cli.js'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--tenant',
      randomUUID(),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const origin = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the simulator did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (https:\/\/localhost:\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        done(found);
      }
    });
    child.once('exit', (code) => fail(new Error(`the simulator exited with ${code}: ${output}`)));
  });
  return { origin, child };
}

/** The operator's command, as built, on the (stopped) server's data directory. */
function pointTenant(dataDir: string, tenantId: string, origin: string) {
  const run = spawnSync(
    process.execPath,
    [join(packages, 'server', 'dist', 'commands', 'tenant-endpoints.js'), tenantId, origin, `${origin}/v1.0`, '--yes'],
    { env: { ...process.env, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`tenant:endpoints ${tenantId}: ${run.stdout}${run.stderr}`);
}

/** The tenants made for this side's faults: their names and where they point. */
const FAULTY = {
  dns: { name: 'unresolvable.example', tenantId: randomUUID() },
  refused: { name: 'closed-port.example', tenantId: randomUUID() },
  tls: { name: 'untrusted-certificate.example', tenantId: randomUUID() },
} as const;

interface Cause {
  code: Microsoft365FailureCode;
  /** The tenant tested: the demo's (its simulator made to fail) or one pointed at a fault. */
  tenant: 'demo' | keyof typeof FAULTY;
  /** Sets the fault up before the test, and what the alert says beyond the cause, per language. */
  arrange?: () => Promise<void>;
  more?: Record<Language, string>;
}

describe('a failed connection test, by cause', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-m365-'));
  let server: RunningServer | undefined;
  let tls: ChildProcess | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let authenticator: Authenticator;
  let granted: string[] = [];
  let demoName = '';

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
    // First start: the demo world; the faulty tenants are connected as any administrator does.
    const first = await startServer({ dataDir });
    try {
      const signIn = await browser.newPage({ baseURL: first.url, viewport: { width: 1440, height: 900 } });
      await signIn.goto('/configuration');
      await signIn.waitForURL(/\/signin/);
      await submitPassword(signIn, ADMIN, DEMO_PASSWORD);
      authenticator = (await completeQrSetup(signIn)).authenticator;
      await signIn.waitForURL((at) => at.pathname === '/configuration');
      const statuses = await signIn.evaluate(async (faulty) => {
        const { apiKey } = (await (await fetch('/app-config.json')).json()) as { apiKey: string };
        const { token } = JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string };
        const headers = { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const tenants = (await (await fetch('/apollo-beta/api/Tenants', { headers })).json()) as {
          organisationId: string;
        }[];
        const made = [];
        for (const { name, tenantId } of faulty) {
          const answer = await fetch('/apollo-beta/api/Tenants', {
            method: 'POST',
            headers,
            body: JSON.stringify({
              tenantName: name,
              tenantId,
              applicationId: crypto.randomUUID(),
              objectId: crypto.randomUUID(),
              clientSecret: 'e2e-secret',
              redirectUri: 'https://portal.example/auth/callback',
              organisationId: tenants[0]?.organisationId,
            }),
          });
          made.push(answer.status);
        }
        return made;
      }, Object.values(FAULTY));
      expect(statuses).toEqual([200, 200, 200]);
      await signIn.close();
    } finally {
      await first.stop();
    }
    // The operator points them at the faults while the server is stopped.
    const untrusted = await untrustedTlsServer(join(dataDir, 'untrusted-tls'));
    tls = untrusted.child;
    pointTenant(dataDir, FAULTY.dns.tenantId, 'https://portal-test.invalid');
    pointTenant(dataDir, FAULTY.refused.tenantId, `https://127.0.0.1:${await freePort()}`);
    pointTenant(dataDir, FAULTY.tls.tenantId, untrusted.origin);
    server = await startServer({ dataDir });
    context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    // The portal's Permissions-Policy lets it write the clipboard but no page read it: what is written
    // is kept aside here as it goes to the clipboard.
    await context.addInitScript(() => {
      const clipboard = navigator.clipboard;
      const write = clipboard.writeText.bind(clipboard);
      clipboard.writeText = async (text: string) => {
        await write(text);
        (window as unknown as { copied?: string }).copied = text;
      };
    });
    page = await context.newPage();
    await page.goto('/configuration');
    await page.waitForURL(/\/signin/);
    await submitPassword(page, ADMIN, DEMO_PASSWORD);
    await submitCode(page, authenticator);
    await page.waitForURL((at) => at.pathname === '/configuration');
    granted = await simulatorConsent(server.url, CONTOSO_TENANT);
    demoName = await page.evaluate(async (tenantId) => {
      const { apiKey } = (await (await fetch('/app-config.json')).json()) as { apiKey: string };
      const { token } = JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string };
      const tenants = (await (
        await fetch('/apollo-beta/api/Tenants', { headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` } })
      ).json()) as { tenantId: string; tenantName: string }[];
      return tenants.find((t) => t.tenantId === tenantId)?.tenantName ?? '';
    }, CONTOSO_TENANT);
    expect(demoName).not.toBe('');
  }, 360_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tls?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Puts the demo tenant's Microsoft 365 back as it was. */
  const heal = async () => {
    if (!server) return;
    await simulatorTokenFault(server.url, CONTOSO_TENANT, 'none');
    await simulatorConsent(server.url, CONTOSO_TENANT, granted);
    await simulatorThrottle(server.url, { every: 0 });
  };
  const fault = (f: Parameters<typeof simulatorTokenFault>[2]) => async () =>
    simulatorTokenFault(server?.url ?? '', CONTOSO_TENANT, f);

  const CAUSES: Cause[] = [
    { code: 'm365SecretWrong', tenant: 'demo', arrange: fault('invalidClientSecret') },
    { code: 'm365SecretExpired', tenant: 'demo', arrange: fault('expiredClientSecret') },
    { code: 'm365ApplicationUnknown', tenant: 'demo', arrange: fault('unknownApplication') },
    { code: 'm365TenantUnknown', tenant: 'demo', arrange: fault('unknownTenant') },
    { code: 'm365ConsentMissing', tenant: 'demo', arrange: fault('consentRequired') },
    {
      code: 'm365PermissionMissing',
      tenant: 'demo',
      arrange: () =>
        simulatorConsent(
          server?.url ?? '',
          CONTOSO_TENANT,
          granted.filter((p) => p !== 'User.Read.All'),
        ).then(() => undefined),
      more: {
        en: 'Missing: User.Read.All, needed by Backup, Mail archive, User synchronisation, and Connection test.',
        de: 'Es fehlt: User.Read.All, benötigt für Sicherung, E-Mail-Archiv, Benutzersynchronisierung und Verbindungstest.',
      },
    },
    {
      code: 'm365Throttled',
      tenant: 'demo',
      arrange: () =>
        simulatorThrottle(server?.url ?? '', { every: 1, status: 429, retryAfter: 30, paths: '^/v1.0/users' }),
      more: {
        en: 'Microsoft asks to wait 30 seconds before the next try.',
        de: 'Microsoft bittet, vor dem nächsten Versuch 30 Sekunden zu warten.',
      },
    },
    {
      code: 'm365Outage',
      tenant: 'demo',
      arrange: () =>
        simulatorThrottle(server?.url ?? '', { every: 1, status: 503, retryAfter: 5, paths: '^/v1.0/users' }),
    },
    {
      code: 'm365HostNotFound',
      tenant: 'dns',
      more: { en: 'Address: portal-test.invalid', de: 'Adresse: portal-test.invalid' },
    },
    { code: 'm365Unreachable', tenant: 'refused' },
    { code: 'm365TlsFailed', tenant: 'tls' },
  ];

  /** The alert of the test just run, once it names `code`. */
  const alertOf = (code: Microsoft365FailureCode) => page.locator(`[data-testid="m365-failure"][data-cause="${code}"]`);

  const chooseLanguage = async (language: Language) => {
    await page.getByTestId('language-switch').selectOption(language);
    await page
      .locator('html')
      .and(page.locator(`[lang="${language}"]`))
      .waitFor();
  };

  /** Scrolls the page so that the element's top is just below the fixed header. */
  const showFromTop = (element: Locator) =>
    element.evaluate((e) => window.scrollBy(0, e.getBoundingClientRect().top - 80));

  const photograph = async (code: string, language: Language) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      // The window as the administrator sees it, the result from its top in view below the header.
      await showFromTop(alertOf(code as Microsoft365FailureCode));
      await page.screenshot({ path: join(SCREENSHOTS, `${code}-${language}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  };

  it.each(CAUSES.map((c) => [c.code, c] as const))(
    '%s: its sentence and action in English and German',
    async (code, cause) => {
      await heal();
      await cause.arrange?.();
      const name = cause.tenant === 'demo' ? demoName : FAULTY[cause.tenant].name;
      const row = page.getByRole('table', { name: 'Tenants' }).getByRole('row').filter({ hasText: name }).first();
      await row.getByRole('button', { name: 'Test connection' }).click();
      const alert = alertOf(code);
      await alert.waitFor({ timeout: 60_000 });
      for (const language of ['en', 'de'] as const) {
        if (language === 'de') await chooseLanguage('de');
        const messages = language === 'en' ? englishErrorMessages : germanErrorMessages;
        await expect.poll(() => alert.getByTestId('m365-cause').textContent()).toBe(messages[code]);
        expect(await alert.getByTestId('m365-title').textContent()).toBe(TITLE[language](name));
        if (cause.more) expect(await alert.textContent()).toContain(cause.more[language]);
        await photograph(code, language);
      }
      await chooseLanguage('en');
      await heal();
    },
  );

  it('copies the cause and Microsoft’s ids by keyboard, with a confirmation, and fits both widths', async () => {
    await simulatorTokenFault(server?.url ?? '', CONTOSO_TENANT, 'expiredClientSecret');
    const row = page.getByRole('table', { name: 'Tenants' }).getByRole('row').filter({ hasText: demoName }).first();
    await row.getByRole('button', { name: 'Test connection' }).click();
    await alertOf('m365SecretWrong')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    const alert = alertOf('m365SecretExpired');
    await alert.waitFor({ timeout: 60_000 });
    const copy = alert.getByRole('button', { name: 'Copy details' });
    await copy.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => alert.getByRole('status').textContent())
      .toBe('Details copied. Paste them into your request to support.');
    const copied = await page.evaluate(() => (window as unknown as { copied?: string }).copied ?? '');
    expect(copied).toContain(`Microsoft 365 failure: ${TITLE.en(demoName)}`);
    expect(copied).toContain('Cause: m365SecretExpired');
    expect(copied).toContain('AADSTS code: AADSTS7000222');
    expect(copied).toMatch(/Correlation ID: [0-9a-f-]{36}/);
    expect(copied).toMatch(/Request ID: [0-9a-f-]{36}/);
    // The technical details open by keyboard too.
    await alert.getByText('Technical details').focus();
    await page.keyboard.press('Enter');
    await alert.getByText('AADSTS7000222', { exact: true }).waitFor();
    await showFromTop(alert);
    await page.screenshot({ path: join(SCREENSHOTS, 'details-en-1440.png') });
    expect(
      await layoutProblems(page, 'a failed connection test with its details', {
        widths: [390, 1440],
        axeAt: [390, 1440],
      }),
    ).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    await showFromTop(alert);
    await page.screenshot({ path: join(SCREENSHOTS, 'details-en-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    await heal();
    console.log(`Screenshots of every cause at 1440 and 390 px, in English and German: ${SCREENSHOTS}`);
  });
});
