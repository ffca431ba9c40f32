/**
 * The browser helpers of scripts/browser.mjs, and the steps only the browser tests need: the session
 * every test file opens (useBrowserSession) and the layout and accessibility check of its pages
 * (expectResponsiveAndAccessible).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import {
  type Authenticator,
  CHROMIUM_FLAGS,
  completeQrSetup,
  launchBrowser,
  submitCode,
  submitPassword,
} from '../scripts/browser.mjs';
import {
  DEMO_CLIENT_SECRET,
  DEMO_PASSWORD,
  type RunningServer,
  simulatorOf,
  startServer,
} from '../scripts/start-server.mjs';

export {
  Authenticator,
  completeQrSetup,
  openSignInWhileLoading,
  submitCode,
  submitPassword,
  typePassword,
} from '../scripts/browser.mjs';

const baseUrl = () => inject('baseUrl');

/**
 * Where a test file writes its screenshots: E2E_SCREENSHOTS when set (made if missing), else a new
 * temporary directory. Named in the output, so that the pictures can be found and looked at.
 */
export function screenshotDirectory(what: string): string {
  const directory = process.env.E2E_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'portal-e2e-screenshots-'));
  mkdirSync(directory, { recursive: true });
  console.log(`${what} screenshots: ${directory}`);
  return directory;
}

/** The demo world's accounts and its administrator's tenant. */
export const ADMIN = 'admin@contoso.example';
export const PARTNER = 'partner@fabrikam.example';
export const CONTOSO_TENANT = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';

/** The window every session opens with. */
const DESKTOP = { width: 1350, height: 900 };
/**
 * The layout's breakpoints. The first one, 0, is checked at 320 px: the narrowest screen the portal
 * is made for.
 */
const BREAKPOINTS: readonly number[] = [320, 600, 900, 1200, 1350, 1536];

export type Language = 'en' | 'de';

/** The portal's language for the next page load (the page must be on the portal's origin). */
export async function chooseLanguage(page: Page, language: Language) {
  await page.evaluate((lang) => localStorage.setItem('language', lang), language);
}

export interface BrowserSessionOptions {
  /**
   * A server of this file's own (fresh demo accounts), started with these options (a function: read
   * when the file's tests start); by default the server global-setup.ts starts for every file.
   */
  ownServer?: boolean | Parameters<typeof startServer>[0] | (() => Parameters<typeof startServer>[0]);
  /** The window of the session's pages: DESKTOP by default. */
  viewport?: { width: number; height: number };
  acceptDownloads?: boolean;
  /**
   * Playwright's clock, installed in the context before any page loads the app. Its pages run without
   * CSS animations: a dialog leaves the page when its exit animation ends, and on a busy machine that
   * end was missed while the fake clock held the fallback timer (session's trial dialog stayed, closed
   * but visible, and every later test of the file failed behind it).
   */
  clock?: boolean;
  /** A script run in every page of the context before the app's own. */
  initScript?: () => void;
  /**
   * A persistent browser profile (a temporary one, removed at the end) standing in for the installed
   * app; restart() closes the browser and opens it again on the same profile.
   */
  persistent?: boolean;
}

interface FirstSignIn {
  /** The demo account: ADMIN by default. */
  email?: string;
  /** The page that signs in: the session's by default. */
  page?: Page;
  /** The pathname the portal lands on after the setup, waited for: `path`'s by default. */
  landing?: string;
}

export interface BrowserSession {
  /** The server of this file's own (ownServer). */
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The context of `page`. */
  readonly context: BrowserContext;
  /** The page every test of the file drives (a new one after restart()). */
  readonly page: Page;
  /**
   * A page in a context of its own (another browser, another user) with the session's options, or
   * these: closed with the browser.
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /**
   * The first sign-in of a demo account: `path` opened, sent to /signin, the password, the
   * authenticator set up from its QR code; kept for signInAgain.
   */
  signIn(path: string, options?: FirstSignIn): Promise<{ authenticator: Authenticator; recoveryCodes: string[] }>;
  /** A later sign-in on /signin: the password (DEMO_PASSWORD by default), then a code of the account's authenticator. */
  signInAgain(page: Page, options?: { email?: string; password?: string }): Promise<void>;
  /** A persistent session's browser closed and opened again on its profile. */
  restart(): Promise<void>;
}

/**
 * The browser (and the server, with ownServer) of a test file: registers the file's beforeAll and
 * afterAll, which open them and close them again. Call it at the top of the file.
 */
export function useBrowserSession(options: BrowserSessionOptions = {}): BrowserSession {
  const contextOptions: BrowserContextOptions = {
    viewport: options.viewport ?? DESKTOP,
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
  };
  let server: RunningServer | undefined;
  let url = '';
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let profile: string | undefined;
  const authenticators = new Map<string, Authenticator>();
  const opened = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser session has no ${what} (yet)`);
    return value;
  };
  const authenticatorOf = (email: string) =>
    opened(authenticators.get(email), `authenticator of ${email}: signIn first`);

  async function open() {
    if (profile !== undefined) {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: [...CHROMIUM_FLAGS],
        baseURL: url,
        ...contextOptions,
      });
    } else {
      browser ??= await launchBrowser();
      context = await browser.newContext({ baseURL: url, ...contextOptions });
    }
    if (options.clock) {
      await context.clock.install();
      await context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const style = document.createElement('style');
          style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; }';
          document.head.append(style);
        });
      });
    }
    if (options.initScript) await context.addInitScript(options.initScript);
    page = context.pages()[0] ?? (await context.newPage());
  }

  beforeAll(async () => {
    if (options.ownServer) {
      const own = options.ownServer;
      server = await startServer(typeof own === 'function' ? own() : own === true ? {} : own);
      url = server.url;
    } else url = baseUrl();
    if (options.persistent) profile = mkdtempSync(join(tmpdir(), 'portal-profile-'));
    await open();
  });
  afterAll(async () => {
    await (browser ?? context)?.close();
    await server?.stop();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  return {
    get server() {
      return opened(server, 'server of its own');
    },
    get browser() {
      return opened(browser, 'browser (a persistent one has only its context)');
    },
    get context() {
      return opened(context, 'context');
    },
    get page() {
      return opened(page, 'page');
    },
    async newPage(more = {}) {
      const own = await opened(browser, 'browser to open a context in').newContext({
        baseURL: url,
        ...contextOptions,
        ...more,
      });
      return own.newPage();
    },
    async signIn(path, { email = ADMIN, page: target = opened(page, 'page'), landing } = {}) {
      await target.goto(path);
      await target.waitForURL(/\/signin/);
      await submitPassword(target, email, DEMO_PASSWORD);
      const account = await completeQrSetup(target);
      authenticators.set(email, account.authenticator);
      const expected = landing ?? new URL(path, url).pathname;
      await target.waitForURL((at) => at.pathname === expected);
      return account;
    },
    async signInAgain(target, { email = ADMIN, password = DEMO_PASSWORD } = {}) {
      await submitPassword(target, email, password);
      await submitCode(target, authenticatorOf(email));
    },
    async restart() {
      if (profile === undefined) throw new Error('restart() needs a persistent session');
      await context?.close();
      await open();
    },
  };
}

export async function logOutThroughMenu(page: Page) {
  const menuItem = page.getByRole('menuitem', { name: 'Log out' });
  const attempt = async () => {
    // A menu left open (or still closing) by an earlier step would swallow the click: start closed.
    await page.keyboard.press('Escape');
    await menuItem.waitFor({ state: 'hidden' });
    await page.getByTestId('user-menu').click();
    await menuItem.waitFor({ state: 'visible' });
    await menuItem.click();
    await page.waitForURL(/\/signin/, { timeout: 15_000 });
  };
  try {
    await attempt();
  } catch (error) {
    // Twice in a run with the machine saturated (a whole suite beside a busy loop), the page stayed put
    // after the click for 30 s. Say where it stood, then go on once: a second miss fails the test.
    const state = await page.evaluate(() => ({
      at: location.pathname,
      menuOpen: document.querySelector('[role="menuitem"]') !== null,
      storedUser: localStorage.getItem('user') !== null,
    }));
    console.warn(
      `"Log out" did not reach /signin at first (${JSON.stringify(state)}): ${String(error).split('\n')[0]}`,
    );
    // Signed out but not yet moved on: wait longer. Still signed in: the click was lost; click again.
    if (state.storedUser) await attempt();
    else await page.waitForURL(/\/signin/);
  }
}

/**
 * Waits until the page's running animations (a dialog's enter animation, fades) have ended; endless
 * ones (a spinner, a striped progress bar) never end and are not waited for.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** WCAG 2.1 A and AA violations axe-core finds on the page as it is now, one line each. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Colours are only final once enter animations (fades) have ended.
  await animationsSettled(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .map((n) => `${n.target.join(' ')} ${n.any.map((check) => check.message).join('; ')}`)
        .join(' | ')}`,
  );
}

export interface LayoutOptions {
  /** The widths checked, BREAKPOINTS by default. */
  widths?: readonly number[];
  /** The widths at which axe-core checks WCAG 2.1 A and AA too: 320 and 1350 px by default. */
  axeAt?: readonly number[];
  /** The window's height at every width: 900 px by default. */
  height?: number;
  /** Further checks at each width, run as soon as the window has it. */
  atWidth?: (width: number) => Promise<void>;
}

/**
 * How far the page reaches past the window's right edge once it has answered the window's width. A
 * table's phone layout (matchMedia) and its folded row actions (ResizeObserver) come a render after
 * the window changed, and on a busy machine that render came after a measurement taken at once
 * (/partner-setup's sort arrows 39 px past 320 px in one run). Waits (each frame, at most 5 s) until
 * nothing reaches past the edge: what is still past it then is the page's own.
 */
async function overflowAtRest(page: Page): Promise<number> {
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 5_000 })
    .catch(() => undefined);
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * What is wrong with the page as it is now at each width, one line each: sideways scrolling (naming
 * the innermost elements past the right edge) and, at `axeAt`, WCAG 2.1 A/AA violations. The window
 * has its former size again afterwards.
 */
export async function layoutProblems(page: Page, where: string, options: LayoutOptions = {}): Promise<string[]> {
  const { widths = BREAKPOINTS, axeAt = [320, 1350], height = 900, atWidth } = options;
  const before = page.viewportSize() ?? DESKTOP;
  const problems: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height });
    await atWidth?.(width);
    const overflow = await overflowAtRest(page);
    if (overflow > 0) {
      // The innermost elements reaching past the right edge: what to fix.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
          .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth))
          .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}"`)
          .slice(0, 5),
      );
      problems.push(`${where} at ${width}px scrolls sideways by ${overflow}px: ${wide.join(', ')}`);
    }
    if (axeAt.includes(width)) {
      for (const v of await accessibilityViolations(page)) problems.push(`${where} at ${width}px: ${v}`);
    }
  }
  await page.setViewportSize(before);
  return problems;
}

export interface PagesOptions extends LayoutOptions {
  /**
   * Each page in each of these languages (the document's lang checked; English again afterwards); by
   * default in the language the portal has.
   */
  languages?: readonly Language[];
  /** The width each page is loaded at, before it is narrowed and widened: 1350 px by default. */
  loadAt?: number;
  /** Brings the page to the state checked, once its first heading is there (before the network is idle). */
  ready?: (page: Page, at: { path: string; language?: Language }) => Promise<void>;
  /** The page has this many tabs (checked), each checked as a page of its own; 0: the page itself. */
  tabs?: number;
}

/**
 * Each of `paths`, loaded and brought to rest, fits every width without sideways scrolling and has
 * no WCAG 2.1 A/AA violation (see layoutProblems); every problem found is named in one failure.
 */
export async function expectResponsiveAndAccessible(
  page: Page,
  paths: readonly string[],
  options: PagesOptions = {},
): Promise<void> {
  const { languages, loadAt = DESKTOP.width, ready, tabs, ...layout } = options;
  const height = layout.height ?? 900;
  const before = page.viewportSize() ?? DESKTOP;
  const problems: string[] = [];
  for (const language of languages ?? [undefined]) {
    if (language) {
      // localStorage belongs to the portal's origin: a fresh page opens the portal first.
      if (!page.url().startsWith('http')) await page.goto(paths[0] ?? '/');
      await chooseLanguage(page, language);
    }
    for (const path of paths) {
      await page.setViewportSize({ width: loadAt, height });
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await ready?.(page, { path, ...(language ? { language } : {}) });
      await page.waitForLoadState('networkidle');
      if (language) expect(await page.locator('html').getAttribute('lang')).toBe(language);
      const count = tabs === undefined ? 0 : await page.getByRole('tab').count();
      if (tabs !== undefined) expect(count).toBe(tabs);
      for (let tab = 0; tab < Math.max(1, count); tab += 1) {
        if (count) {
          await page.setViewportSize({ width: loadAt, height });
          await page.getByRole('tab').nth(tab).click();
          await page.waitForLoadState('networkidle');
        }
        const where = `${language ? `${language} ` : ''}${path}${count ? ` tab ${tab + 1}` : ''}`;
        problems.push(...(await layoutProblems(page, where, layout)));
      }
    }
  }
  if (languages) await chooseLanguage(page, 'en');
  await page.setViewportSize(before);
  expect(problems).toEqual([]);
}

/** Waits until the locator's text matches (the monitor's rows change as runs move on). */
/**
 * Chooses one of a table row's actions: its button, or, where the table had no room for them side by
 * side, the item of the row's "More" menu.
 */
export async function rowAction(row: Locator, name: string) {
  const button = row.getByRole('button', { name, exact: true });
  const more = row.getByRole('button', { name: /^More actions for / });
  // The row's actions as they come: the action's own button, or the More button it folded into.
  await button.or(more).first().waitFor();
  if ((await button.count()) > 0) return button.click();
  await more.click();
  const label = (await more.getAttribute('aria-label')) ?? '';
  await row.page().getByRole('group', { name: label, exact: true }).getByRole('button', { name, exact: true }).click();
}

/**
 * Works as a client from the partner's fleet (/partner-setup): its row's "Work as" button, or, where
 * the row folded its actions, the same button in its More panel. `label` in another language.
 */
export async function workAs(page: Page, name: string, label = `Work as ${name}`) {
  const row = page.getByTestId('client-list').getByRole('row').filter({ hasText: name });
  const button = row.getByRole('button', { name: label, exact: true });
  const more = row.locator('[data-actions-menu]');
  await button.or(more).first().waitFor();
  if ((await button.count()) > 0) await button.click();
  else {
    await more.click();
    await page.locator('[data-action="work-as"]').filter({ hasText: label }).click();
  }
  await page.waitForURL((url) => !url.pathname.startsWith('/partner-setup'));
}

/** A run's states once it has ended, as its state badge (`data-status`) names them. */
const RUN_ENDED = /^(finished|finishedWithWarnings|failed|stopped)$/;

/**
 * Waits until the run of a monitor's (or a jobs list's) row has ended and returns its state as the
 * row's state badge names it (`finished`, `finishedWithWarnings`, `failed`, `stopped`): never read
 * from the row's text, which at a narrow width holds the "Finished" column's own label before the run
 * has ended.
 */
export async function runEnded(row: Locator, timeoutMs = 120_000): Promise<string> {
  const badge = row.locator('[data-status]').first();
  let state: string | null = null;
  await expect
    .poll(
      async () => {
        state = await badge.getAttribute('data-status', { timeout: 1_000 }).catch(() => null);
        return state;
      },
      { timeout: timeoutMs, interval: 1_000 },
    )
    .toMatch(RUN_ENDED);
  return state ?? '';
}

export async function waitForText(locator: Locator, pattern: RegExp, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await locator.textContent().catch(() => '')) ?? '';
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; last "${text}"`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** One https request to the simulator, trusting only its CA (made by the server after this process started). */
function simulatorRequest(
  url: string,
  ca: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; location?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method: init.method ?? 'GET', headers: init.headers, ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          ...(response.headers.location ? { location: response.headers.location } : {}),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(init.body);
  });
}

/**
 * A demo tenant's Microsoft 365 (the demo simulator of the server at `origin`, started by
 * startServer in this process), read as an app registration reads it: a token by client credentials
 * from the tenant's authority, then Graph over https.
 */
export async function simulatorGraph(origin: string, tenantId: string) {
  const simulator = simulatorOf(origin);
  if (!simulator) throw new Error(`no demo simulator known for ${origin}: start the server with startServer()`);
  const ca = readFileSync(simulator.caCertificatePath, 'utf8');
  const answer = await simulatorRequest(`${simulator.url}/${tenantId}/oauth2/v2.0/token`, ca, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // The demo tenant's app registration (its id fixed by the seed) with the secret the server was given.
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `5e1f0a4b-6c2d-4e8f-9a31-${tenantId.slice(-12)}`,
      client_secret: DEMO_CLIENT_SECRET,
      scope: 'https://graph.microsoft.com/.default',
    }).toString(),
  });
  if (answer.status !== 200) throw new Error(`the simulator refused a token: ${answer.status} ${answer.body}`);
  const { access_token: token } = JSON.parse(answer.body.toString('utf8')) as { access_token: string };
  // Redirects are followed as fetch follows them (Graph answers /content with 302 to a download link).
  const get = async (path: string) => {
    let url = `${simulator.url}/v1.0${path}`;
    for (let hops = 0; hops < 5; hops++) {
      const sameOrigin = new URL(url).origin === simulator.url;
      const response = await simulatorRequest(url, ca, {
        headers: sameOrigin ? { authorization: `Bearer ${token}` } : {},
      });
      if (!response.location || response.status < 300 || response.status > 399) return response.body;
      url = new URL(response.location, url).toString();
    }
    throw new Error(`GET ${path}: too many redirects`);
  };
  return {
    json: async <T>(path: string) => JSON.parse((await get(path)).toString('utf8')) as T,
    bytes: async (path: string) => get(path),
  };
}

/**
 * A call of the demo simulator's control endpoint (`/_simulator/<what>`) with the control key of its
 * data directory: GET without a body, POST with one; answers the JSON it returns.
 */
async function simulatorControl(origin: string, what: string, body?: unknown): Promise<unknown> {
  const simulator = simulatorOf(origin);
  if (!simulator) throw new Error(`no demo simulator known for ${origin}: start the server with startServer()`);
  const key = readFileSync(join(dirname(dirname(simulator.caCertificatePath)), 'control-key'), 'utf8').trim();
  const answer = await simulatorRequest(
    `${simulator.url}/_simulator/${what}`,
    readFileSync(simulator.caCertificatePath, 'utf8'),
    {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', 'x-simulator-control': key },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  if (answer.status !== 200) throw new Error(`the simulator's ${what}: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body.toString('utf8'));
}

/**
 * A demo tenant's consent set (the application permissions of its app registration's next tokens),
 * read, or replaced by `roles`.
 */
export async function simulatorConsent(origin: string, tenantId: string, roles?: readonly string[]) {
  const body = (await simulatorControl(origin, 'consent', roles ? { tenantId, roles } : undefined)) as Record<
    string,
    string[]
  > & { roles?: string[] };
  return roles ? (body.roles ?? []) : (body[tenantId] ?? []);
}

/** How the demo simulator makes the next ID tokens of "Sign in with Microsoft" wrong (`none`: right). */
export async function simulatorSignInFault(origin: string, fault: string) {
  await simulatorControl(origin, 'sign-in', { fault });
}

/**
 * How the demo simulator's token endpoint refuses a demo tenant's client credentials, each with
 * Entra ID's AADSTS code (`none`: it issues tokens).
 */
export async function simulatorTokenFault(
  origin: string,
  tenantId: string,
  fault:
    | 'none'
    | 'invalidClientSecret'
    | 'expiredClientSecret'
    | 'unknownApplication'
    | 'unknownTenant'
    | 'consentRequired',
) {
  await simulatorControl(origin, 'token', { tenantId, fault });
}

/** Every n-th Graph request on the paths matched answered with 429 or 503 and Retry-After (`every: 0`: none). */
export async function simulatorThrottle(
  origin: string,
  setting: { every: number; status?: 429 | 503; retryAfter?: number; paths?: string },
) {
  await simulatorControl(origin, 'throttle', setting);
}

/** The demo simulator's throttling in force (`every` 0: none). */
export async function simulatorThrottleSetting(origin: string) {
  return (await simulatorControl(origin, 'throttle')) as {
    every: number;
    status: 429 | 503;
    retryAfter: number;
    paths?: string;
  };
}
