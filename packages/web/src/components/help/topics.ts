/**
 * The help center's topics: each with its articles, in the order shown (an article's id names its
 * question and answer keys under `helpcenter:topics.<topic>.<article>` and stays when articles are
 * added), and the page of its area; `search` opens a tab of that page,
 * and `page` names the page in the link where the topic's title does not. Read by the help center and
 * by the page header's link to the article of its page, whose `help` prop is typed from this list.
 */
export const HELP_TOPICS = [
  { id: 'overview', articles: ['a1', 'a2'], to: '/' },
  { id: 'backup', articles: ['a4', 'a1', 'a2', 'a3'], to: '/backup-and-restore/dashboard' },
  { id: 'dataManagement', articles: ['a5', 'a1', 'a2', 'a3', 'a4'], to: '/compliance' },
  { id: 'emailArchive', articles: ['a7', 'a1', 'a2', 'a6', 'a3', 'a4', 'a5'], to: '/archive/dashboard' },
  { id: 'teamsArchive', articles: ['a5', 'a1', 'a2', 'a3', 'a4'], to: '/teams/dashboard' },
  { id: 'ediscovery', articles: ['a1', 'a2', 'a3', 'a4'], to: '/ediscovery/portal' },
  { id: 'reports', articles: ['a1', 'a2'], to: '/reports' },
  { id: 'figures', articles: ['a1', 'a2', 'a3', 'a4'], to: '/' },
  { id: 'documents', articles: ['a1'], to: '/documents' },
  { id: 'configuration', articles: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'], to: '/configuration' },
  { id: 'partner', articles: ['a1'], to: '/partner-setup' },
  { id: 'account', articles: ['a1', 'a2', 'a3', 'a4'], to: '/account/settings' },
  {
    id: 'signIn',
    articles: ['a1', 'a2', 'a3'],
    to: '/account/settings',
    search: { tab: 'security' },
    page: 'accountSecurity:tabs.security',
  },
  { id: 'offline', articles: ['a1', 'a2', 'a3', 'a4', 'a5'], to: '/', page: 'pages:overview' },
  { id: 'support', articles: ['a1'], to: '/account/support' },
] as const;

export type HelpTopic = (typeof HELP_TOPICS)[number];
type HelpTopicId = HelpTopic['id'];

/** Where a page's help is: a topic, or one article of it (`'backup'`, `'backup.a2'`). */
export type HelpTarget<T extends HelpTopic = HelpTopic> = T extends HelpTopic
  ? T['id'] | `${T['id']}.${T['articles'][number]}`
  : never;

/** The topic and the article of a target, as the help center's search parameters name them. */
export function helpLocation(target: HelpTarget): { topic: HelpTopicId; article?: string } {
  const [topic, article] = target.split('.') as [HelpTopicId, string?];
  return article ? { topic, article } : { topic };
}
