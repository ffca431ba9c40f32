/**
 * The help center: its articles in English and German, found by searching, each topic linking to its
 * area's page; a page's help link, and the help center opened at the article it names.
 */

import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { navigation } from '../../components/layout/navigation';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const client = respond('legacy.workers.client', testClient());
const texts = { en: en.helpcenter, de: de.helpcenter };

/** Opens the help center (at `path`) signed in as a customer administrator, in the language given. */
async function openHelpAt(path: string, language: 'en' | 'de' = 'en') {
  localStorage.setItem('language', language);
  storeUser({ token: 'session-token', user: { email: 'admin@contoso.example', role: 'admin' } });
  storeWorker(testWorker());
  const { user } = await renderPortal(path, { 'legacy.workers.client': client });
  const search = await screen.findByLabelText(texts[language].search);
  return { user, search };
}

const openHelp = (language: 'en' | 'de') => openHelpAt('/helpcenter', language);

/** The questions shown, by topic. */
function shown(): Record<string, string[]> {
  return Object.fromEntries(
    screen.queryAllByTestId(/^topic-/).map((topic) => [
      topic.dataset.testid?.replace('topic-', ''),
      within(topic)
        .queryAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ]),
  );
}

/** Types a search and waits until the count says how many articles match. */
async function searchFor(
  { user, search }: Awaited<ReturnType<typeof openHelp>>,
  query: string,
  count: number,
  language: 'en' | 'de',
) {
  await user.clear(search);
  await user.type(search, query);
  const matches = count === 1 ? texts[language].matches_one : texts[language].matches_other;
  await waitFor(() =>
    expect(screen.getByTestId('help-count').textContent).toBe(matches.replace('{{count}}', String(count))),
  );
}

describe('help center', () => {
  for (const language of ['en', 'de'] as const) {
    const topics = texts[language].topics;

    it(`says what legal hold keeps, in the email archive, the Teams archive and eDiscovery (${language})`, async () => {
      const help = await openHelp(language);
      await searchFor(help, language === 'en' ? 'legal hold' : 'Legal Hold', 5, language);
      expect(shown()).toEqual({
        emailArchive: [topics.emailArchive.a4q, topics.emailArchive.a5q],
        teamsArchive: [topics.teamsArchive.a3q],
        ediscovery: [topics.ediscovery.a4q],
        configuration: [topics.configuration.a4q],
      });
      const teams = screen.getByTestId('topic-teamsArchive');
      expect(within(teams).getByText(topics.teamsArchive.a3a)).toBeTruthy();
    });

    it(`explains offline use: installing, what is saved, the banner, what needs a connection (${language})`, async () => {
      const help = await openHelp(language);
      await searchFor(help, 'offline', 5, language);
      const { offline } = topics;
      expect(shown()).toEqual({ offline: [offline.a1q, offline.a2q, offline.a3q, offline.a4q, offline.a5q] });
      const topic = screen.getByTestId('topic-offline');
      expect(within(topic).getByText(offline.a2a)).toBeTruthy();
      // The overview is one of the dashboards kept for offline reading: the topic links there.
      const overview = language === 'en' ? en.pages.overview : de.pages.overview;
      const link = within(topic).getByRole('link', { name: texts[language].open.replace('{{area}}', overview) });
      expect(link.getAttribute('href')).toBe('/');
    });

    it(`explains sign-in with Microsoft, and links to the sign-in settings (${language})`, async () => {
      const help = await openHelp(language);
      await searchFor(help, 'Microsoft', 7, language);
      const { signIn, account, configuration, figures } = topics;
      expect(shown()).toEqual({
        figures: [figures.a4q],
        configuration: [configuration.a1q, configuration.a3q],
        account: [account.a1q],
        signIn: [signIn.a1q, signIn.a2q, signIn.a3q],
      });
      await searchFor(help, 'Entra', 2, language);
      expect(shown()).toEqual({ signIn: [signIn.a1q, signIn.a2q] });
      const topic = screen.getByTestId('topic-signIn');
      expect(within(topic).getByText(signIn.a2a)).toBeTruthy();
      const security = language === 'en' ? en.accountSecurity.tabs.security : de.accountSecurity.tabs.security;
      const link = within(topic).getByRole('link', { name: texts[language].open.replace('{{area}}', security) });
      expect(link.getAttribute('href')).toBe('/account/settings?tab=security');
    });

    it(`gives the support page's hours and answer time in the support article (${language})`, async () => {
      const help = await openHelp(language);
      await searchFor(help, language === 'en' ? 'Monday' : 'Montag', 1, language);
      expect(shown()).toEqual({ support: [topics.support.a1q] });
      const hours = language === 'en' ? en.support.hours : de.support.hours;
      const answers = language === 'en' ? en.account.responseTime : de.account.responseTime;
      expect(screen.getByTestId('topic-support').textContent).toContain(`${hours} ${answers}`);
    });

    it(`covers the pages beyond the areas' first pages: Teams messages, clean-up jobs, admin consent, users, the audit log (${language})`, async () => {
      const help = await openHelp(language);
      const { teamsArchive, dataManagement, configuration } = topics;
      const searches: [string, number, Record<string, string[]>][] =
        language === 'en'
          ? [
              // What a run changed counts the messages an archive run archived; items protected counts
              // the messages held and what was archived for a mailbox.
              [
                'archived messages',
                5,
                {
                  teamsArchive: [teamsArchive.a5q, teamsArchive.a3q, teamsArchive.a4q],
                  figures: [topics.figures.a1q, topics.figures.a2q],
                },
              ],
              ['clean-up jobs', 1, { dataManagement: [dataManagement.a4q] }],
              ['admin consent', 1, { configuration: [configuration.a3q] }],
              ['eDiscovery manager', 2, { ediscovery: [topics.ediscovery.a4q], configuration: [configuration.a4q] }],
              ['audit log', 1, { configuration: [configuration.a5q] }],
            ]
          : [
              ['archivierte Nachrichten', 3, { teamsArchive: [teamsArchive.a5q, teamsArchive.a3q, teamsArchive.a4q] }],
              ['Bereinigungsaufträge', 1, { dataManagement: [dataManagement.a4q] }],
              ['Administratorzustimmung', 1, { configuration: [configuration.a3q] }],
              ['eDiscovery-Manager', 2, { ediscovery: [topics.ediscovery.a4q], configuration: [configuration.a4q] }],
              ['Audit-Protokoll', 1, { configuration: [configuration.a5q] }],
            ];
      for (const [query, count, expected] of searches) {
        await searchFor(help, query, count, language);
        expect(shown(), query).toEqual(expected);
      }
    });
  }

  it('has a topic for every area of the navigation, linking into that area', async () => {
    await openHelp('en');
    const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-testid^="topic-"] a[href]')].map(
      (a) => new URL(a.href, 'http://portal.test').pathname,
    );
    expect(links.length).toBe(Object.keys(en.helpcenter.topics).length);
    for (const group of navigation) {
      // Each group of the menu has a topic that links to one of its pages (the help center's own entry aside).
      const pages = group.items.map((item) => item.to).filter((to) => to !== '/helpcenter');
      expect(
        links.filter((to) => pages.includes(to)),
        group.label,
      ).not.toEqual([]);
    }
  });
});

/** The topics whose triggers say they are expanded. */
function expanded(): string[] {
  return screen
    .queryAllByTestId(/^topic-/)
    .filter((topic) => topic.querySelector('button[aria-expanded="true"]'))
    .map((topic) => topic.dataset.testid?.replace('topic-', '') ?? '');
}

describe('help on a page', () => {
  for (const language of ['en', 'de'] as const) {
    it(`links to the page's article by the topic's name, and the help center opens there, without a client chosen (${language})`, async () => {
      // A partner before choosing a client: the account settings and the help center need none.
      localStorage.setItem('language', language);
      storeUser({ token: 'session-token', user: { email: 'partner@fabrikam.example', role: 'partner' } });
      const { user, path, portal } = await renderPortal('/account/settings', {
        'legacy.user.notifications': respond('legacy.user.notifications', {
          jobFailed: true,
          jobFinished: false,
          dailySummary: false,
          weeklyReport: true,
          licenseExpiry: true,
        }),
      });
      const help = texts[language];
      const link = await screen.findByRole('link', {
        name: help.pageLinkNamed.replace('{{topic}}', help.topics.account.title),
      });
      expect(link.textContent).toBe(help.pageLink);
      expect(link.getAttribute('href')).toBe('/helpcenter?topic=account&article=a3');

      await user.click(link);
      await waitFor(() => expect(path()).toBe('/helpcenter'));
      expect(portal.router.state.location.search).toEqual({ topic: 'account', article: 'a3' });
      const article = await screen.findByTestId('help-account-a3');
      // Only its topic is open; the article is marked, named by its question, and has the focus.
      expect(expanded()).toEqual(['account']);
      expect(article.getAttribute('aria-current')).toBe('location');
      expect(within(article).getByRole('heading', { level: 3 }).textContent).toBe(help.topics.account.a3q);
      expect(within(article).getByText(help.topics.account.a3a)).toBeTruthy();
      await waitFor(() => expect(document.activeElement).toBe(article));
      expect(screen.getByRole('article', { name: help.topics.account.a3q })).toBe(article);
      // The first-run guide is an organisation's: with none chosen, the help center does not offer it.
      expect(screen.queryByTestId('first-run-reopen')).toBeNull();
      expect(path()).toBe('/helpcenter');
    });
  }

  it('opens the topic the address names, with the focus on its heading', async () => {
    await openHelpAt('/helpcenter?topic=emailArchive');
    await waitFor(() => expect(expanded()).toEqual(['emailArchive']));
    const trigger = within(screen.getByTestId('topic-emailArchive')).getByRole('button', {
      name: en.helpcenter.topics.emailArchive.title,
    });
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(document.querySelector('article[aria-current]')).toBeNull();
  });

  it('opens no topic for a topic it does not have', async () => {
    await openHelpAt('/helpcenter?topic=nothing&article=a1');
    expect(screen.getAllByTestId(/^topic-/).length).toBe(Object.keys(en.helpcenter.topics).length);
    expect(expanded()).toEqual([]);
  });

  it('opens the topic, with no article marked, for an article it does not have', async () => {
    await openHelpAt('/helpcenter?topic=backup&article=a99');
    await waitFor(() => expect(expanded()).toEqual(['backup']));
    expect(document.querySelector('article[aria-current]')).toBeNull();
  });
});
