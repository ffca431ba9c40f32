// @vitest-environment node
/**
 * The account pages and the help center end to end: a support request sent through the form and
 * kept by the server; help found by searching; the four pages at every breakpoint, in English and German.
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

  it('finds help by searching', async () => {
    const { page } = session;
    await page.goto('/helpcenter');
    await page.getByLabel('Search the help').fill('proxy right');
    await waitForText(page.getByTestId('help-count'), /articles? match/);
    await page.getByTestId('topic-emailArchive').getByText('Who may read an archived mailbox?').waitFor();
    expect(await page.getByTestId('topic-backup').count()).toBe(0);
  });

  it('fits every breakpoint without sideways scrolling and has no WCAG 2.1 A/AA violation, in English and German', async () => {
    await expectResponsiveAndAccessible(
      session.page,
      ['/account/settings', '/account/support', '/account/imprint', '/helpcenter'],
      { languages: ['en', 'de'] },
    );
  });
});
