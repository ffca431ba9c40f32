// @vitest-environment node
/**
 * Every screen of the portal as its users see it, against a server with thirty days of history: each
 * route at 1280, 1440 and 1920 px and at 390 px, in English and German, signed in as the demo
 * administrator, and the partner's own screens. On each: nothing needs sideways scrolling, neither the
 * page nor any box inside it (each scrollable box's scroll width against its client width, not only
 * the page's); no visible text is an id where a name belongs (a GUID, a SharePoint site id
 * `host,guid,guid`, an IP address); no count reads "(s)". Screenshots of every route at 1440 and 390
 * px in both languages are written (E2E_SCREENSHOTS, else a temporary directory) to be looked at;
 * axe-core finds no WCAG 2.1 A or AA violation at 1440 and 390 px in English.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { navigation, visibleFor } from '../src/components/layout/navigation';
import {
  accessibilityViolations,
  chooseLanguage,
  type Language,
  PARTNER,
  screenshotDirectory,
  useBrowserSession,
  workAs,
} from './browser';

/**
 * Every route a signed-in administrator opens from the menu (the menu's own list, so a new page is
 * swept too), and the pages reached from one of them; those with a path parameter are opened from these.
 */
const ROUTES: readonly string[] = [
  ...navigation.flatMap((group) =>
    group.items
      .filter((item) => visibleFor('admin', item.to))
      .map((item) => (item.to === '/' ? '/dashboard' : item.to)),
  ),
  '/configuration/audit-log',
  '/configuration/tenant-consent',
];

/** A partner's screens once a client is chosen: its overview, reports and a monitor. */
const PARTNER_ROUTES = ['/dashboard', '/reports', '/backup-and-restore/job-monitor'] as const;

const WIDTHS = [1280, 1440, 1920, 390] as const;
const SHOT_WIDTHS: readonly number[] = [1440, 390];
/** Where axe-core checks WCAG 2.1 A and AA, in English (German has its own checks in each area's tests). */
const AXE_WIDTHS: readonly number[] = [1440, 390];

/**
 * Where an IP address is the record itself, not an id in place of a name: the audit log says from
 * which address a sign-in or a change came.
 */
const ADDRESSES_SHOWN = new Set<string>(['/configuration/audit-log']);

/** 32 routes at four widths take about 90 s in a language here; ten times that beside another suite. */
const SWEEP_TIMEOUT_MS = 900_000;

const session = useBrowserSession({ ownServer: { history: true } });

/** What is wrong on the page as it is now, one line each. */
async function problemsOf(page: Page, where: string, path: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const visible = (e: Element) => {
      const box = e.getBoundingClientRect();
      return box.width > 2 && box.height > 2 && getComputedStyle(e).visibility !== 'hidden';
    };
    const boxes = [...document.querySelectorAll('body *')]
      .filter((e) => {
        const style = getComputedStyle(e);
        return ['auto', 'scroll', 'hidden'].includes(style.overflowX) && e.clientWidth > 2 && visible(e);
      })
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.getAttribute('aria-label') ? `[${e.getAttribute('aria-label')}]` : ''} ` +
          `${e.scrollWidth}/${e.clientWidth} px "${(e.textContent ?? '').trim().slice(0, 40)}"`,
      );
    return {
      page: document.documentElement.scrollWidth - window.innerWidth,
      boxes,
      // biome-ignore lint/performance/useDomNodeTextContent: what is shown, not hidden text (a copied id's value).
      text: document.body.innerText,
    };
  });
  const problems: string[] = [];
  if (found.page > 0) problems.push(`${where}: the page scrolls sideways by ${found.page} px`);
  for (const box of found.boxes) problems.push(`${where}: a box needs sideways scrolling: ${box}`);
  const ids = [
    ...(found.text.match(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi) ?? []),
    ...(found.text.match(/[\w.-]+\.sharepoint\.com,[0-9a-f-]{36}/gi) ?? []),
    ...(ADDRESSES_SHOWN.has(path) ? [] : (found.text.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) ?? [])),
  ];
  for (const id of new Set(ids)) problems.push(`${where}: an id where a name belongs: ${id}`);
  for (const count of new Set(found.text.match(/\p{L}\((s|es|en|n|e)\)/gu) ?? [])) {
    problems.push(`${where}: a count written "${count}"`);
  }
  return problems;
}

/** Each route loaded at 1440 px in `language`, then checked at every width; screenshots at 1440 and 390 px. */
async function sweep(page: Page, routes: readonly string[], language: Language, who: string): Promise<string[]> {
  const directory = screenshotDirectory(`every screen (${who}, ${language})`);
  await chooseLanguage(page, language);
  const problems: string[] = [];
  for (const path of routes) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      // Rows and cards move under one another as the window narrows: let the layout settle.
      await page.waitForTimeout(150);
      const where = `${who} ${language} ${path} at ${width} px`;
      problems.push(...(await problemsOf(page, where, path)));
      if (language === 'en' && AXE_WIDTHS.includes(width)) {
        for (const violation of await accessibilityViolations(page)) problems.push(`${where}: ${violation}`);
      }
      if (SHOT_WIDTHS.includes(width)) {
        const name = `${who}${path.replace(/\//g, '_')}-${language}-${width}.png`;
        await page.screenshot({ path: join(directory, name), fullPage: true });
      }
    }
  }
  await chooseLanguage(page, 'en');
  return problems;
}

describe('every screen', () => {
  for (const language of ['en', 'de'] as const) {
    it(`fits every width with nothing cut, names instead of ids and counts in words, for the administrator (${language})`, {
      timeout: SWEEP_TIMEOUT_MS,
    }, async () => {
      const { page } = session;
      if (language === 'en') await session.signIn('/dashboard');
      expect(await sweep(page, ROUTES, language, 'admin')).toEqual([]);
    });
  }

  it('does so for a partner too: the client list and a client’s screens', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const page = await session.newPage();
    await session.signIn('/dashboard', { email: PARTNER, page, landing: '/partner-setup' });
    const problems: string[] = [];
    for (const language of ['en', 'de'] as const) {
      problems.push(...(await sweep(page, ['/partner-setup'], language, 'partner')));
    }
    await page.goto('/partner-setup');
    await workAs(page, 'Northwind Traders');
    for (const language of ['en', 'de'] as const) {
      problems.push(...(await sweep(page, PARTNER_ROUTES, language, 'partner')));
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
