// @vitest-environment node
/**
 * The account pages and the help center end to end: a support request sent through the form and
 * kept by the server; a test mail of the notification settings, in the language of the mails chosen; help found by searching, and opened at a page's article from its help link; the four pages at every breakpoint, in English and German.
 */
import { describe, expect, it } from 'vitest';
import { expectResponsiveAndAccessible, useBrowserSession, waitForText } from './browser';

const session = useBrowserSession({ ownServer: true });

describe('account pages', () => {
  it('sends a support request and gets its reference', async () => {
    const { page } = session;
    await session.signIn('/account/support');
    await page.getByText('Support hours: Monday to Friday, 9 AM to 5 PM.').waitFor();
    await page.getByLabel('Subject').fill('Question about restores');
    await page.getByLabel('Area').selectOption('backup');
    await page.getByLabel('Message').fill('Can I restore a whole site into another site?');
    await page.getByRole('button', { name: 'Send request' }).click();
    await waitForText(page.getByTestId('request-sent'), /Your request SR-\d{8}-\d{4} was sent/);
  });

  it('sends a test mail from the notification settings, to the account’s address', async () => {
    const { page } = session;
    await page.goto('/account/settings');
    const language = page.getByLabel('Language of the mails');
    expect(await language.inputValue()).toBe('en');
    await language.selectOption('de');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your notification settings were saved.').waitFor();
    await page.getByRole('button', { name: 'Send a test mail' }).click();
    await page.getByText('A test mail was sent to admin@contoso.example.').waitFor();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/notification-settings-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('finds help by searching', async () => {
    const { page } = session;
    await page.goto('/helpcenter');
    await page.getByLabel('Search the help').fill('proxy right');
    await waitForText(page.getByTestId('help-count'), /articles? match/);
    await page.getByTestId('topic-emailArchive').getByText('Who may read an archived mailbox?').waitFor();
    expect(await page.getByTestId('topic-backup').count()).toBe(0);
  });

  it("opens the help center at a page's article from the page's help link, scrolled to it and focused", async () => {
    const { page } = session;
    // The support article is the last topic's: far down the help center, below the first screen.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/account/support');
    await page.getByRole('link', { name: 'Help on this page: Support' }).click();
    await page.waitForURL((url) => url.pathname === '/helpcenter' && url.search === '?topic=support&article=a1');
    const article = page.getByRole('article', { name: 'How do I reach support?' });
    const shownAndFocused = () =>
      article.evaluate((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
        // In view below the sticky header, once the router has settled its scrolling, and focused.
        return (
          top >= header && bottom <= window.innerHeight && window.scrollY > 0 && element === document.activeElement
        );
      });
    await expect.poll(shownAndFocused).toBe(true);
    expect(await page.getByTestId('topic-backup').getByRole('button').getAttribute('aria-expanded')).toBe('false');
    // The address alone does the same: reloaded, the page opens there again.
    await page.reload();
    await expect.poll(shownAndFocused).toBe(true);
    await page.screenshot({ path: '/tmp/help-target.png' });
    await page.goto('/backup-and-restore/restore');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.screenshot({ path: '/tmp/help-link.png', clip: { x: 0, y: 0, width: 1440, height: 300 } });
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    await expectResponsiveAndAccessible(
      session.page,
      [
        '/account/settings',
        '/account/support',
        '/account/imprint',
        '/helpcenter',
        // Opened at an article: the article marked.
        '/helpcenter?topic=backup&article=a2',
      ],
      { languages: ['en', 'de'] },
    );
  });
});
