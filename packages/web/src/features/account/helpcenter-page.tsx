import { Accordion, Link as ChakraLink, Field, Input, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FirstRunGuideReopen } from '../../components/first-run-guide-reopen';
import { PageHeader } from '../../components/ui/page-header';

/**
 * The help topics: each with its articles (question and answer keys) and where the area is; `search`
 * opens a tab of that page, and `page` names the page in the link where the topic's title does not.
 */
const TOPICS = [
  { id: 'overview', articles: ['a1', 'a2'], to: '/' },
  { id: 'backup', articles: ['a1', 'a2', 'a3'], to: '/backup-and-restore/dashboard' },
  { id: 'dataManagement', articles: ['a1', 'a2', 'a3', 'a4'], to: '/compliance' },
  { id: 'emailArchive', articles: ['a1', 'a2', 'a3', 'a4', 'a5'], to: '/archive/dashboard' },
  { id: 'teamsArchive', articles: ['a1', 'a2', 'a3', 'a4'], to: '/teams/dashboard' },
  { id: 'ediscovery', articles: ['a1', 'a2', 'a3', 'a4'], to: '/ediscovery/portal' },
  { id: 'reports', articles: ['a1', 'a2'], to: '/reports' },
  { id: 'figures', articles: ['a1', 'a2', 'a3', 'a4'], to: '/' },
  { id: 'documents', articles: ['a1'], to: '/documents' },
  { id: 'configuration', articles: ['a1', 'a2', 'a3', 'a4', 'a5'], to: '/configuration' },
  { id: 'partner', articles: ['a1'], to: '/partner-setup' },
  { id: 'account', articles: ['a1', 'a2', 'a3'], to: '/account/settings' },
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

type Topic = (typeof TOPICS)[number];
/** The question and answer keys of each topic's own articles (distributed over the topics, so not crossed). */
type ArticleKey<T extends Topic = Topic> = T extends Topic
  ? `helpcenter:topics.${T['id']}.${T['articles'][number]}${'q' | 'a'}`
  : never;

/**
 * The key of an article's question or answer. Cast in this one place: a template literal of `topic.id`
 * and `article` would cross every topic with every article; `ArticleKey` pairs each topic with its own,
 * and `t()` checks that those keys exist.
 */
function articleKey<T extends Topic>(topic: T, article: T['articles'][number], part: 'q' | 'a') {
  return `helpcenter:topics.${topic.id}.${article}${part}` as ArticleKey<T>;
}

/** Help topics for each area, searchable over titles, questions and answers. */
export function HelpcenterPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => words.every((w) => text.toLowerCase().includes(w));
  const topics = TOPICS.map((topic) => {
    const title = t(`helpcenter:topics.${topic.id}.title`);
    const articles = topic.articles
      .map((a) => ({
        id: a,
        q: t(articleKey(topic, a, 'q')),
        a: t(articleKey(topic, a, 'a')),
      }))
      .filter((x) => words.length === 0 || matches(`${title} ${x.q} ${x.a}`));
    return { ...topic, title, articles };
  }).filter((topic) => topic.articles.length > 0);
  const count = topics.reduce((n, topic) => n + topic.articles.length, 0);
  return (
    <>
      <PageHeader title={t('pages:helpcenter')} description={t('helpcenter:intro')} />
      <Stack gap="4" maxW="4xl">
        <FirstRunGuideReopen />
        <Field.Root>
          <Field.Label>{t('helpcenter:search')}</Field.Label>
          <Input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
        </Field.Root>
        <Text fontSize="sm" color="fg.muted" aria-live="polite" data-testid="help-count">
          {words.length === 0
            ? ''
            : count === 0
              ? t('helpcenter:none', { query: query.trim() })
              : t('helpcenter:matches', { count })}
        </Text>
        <Accordion.Root
          multiple
          {...(words.length > 0 ? { value: topics.map((topic) => topic.id) } : {})}
          variant="enclosed"
        >
          {topics.map((topic) => (
            <Accordion.Item key={topic.id} value={topic.id} data-testid={`topic-${topic.id}`}>
              <Accordion.ItemTrigger>
                <Text as="h2" flex="1" fontWeight="semibold">
                  {topic.title}
                </Text>
                <Accordion.ItemIndicator />
              </Accordion.ItemTrigger>
              <Accordion.ItemContent>
                <Accordion.ItemBody>
                  <Stack gap="3">
                    {topic.articles.map((article) => (
                      <Stack key={article.id} gap="1" as="article">
                        <Text as="h3" fontWeight="medium">
                          {article.q}
                        </Text>
                        <Text>{article.a}</Text>
                      </Stack>
                    ))}
                    <ChakraLink asChild colorPalette="blue">
                      {'search' in topic ? (
                        <Link to={topic.to} search={topic.search}>
                          {t('helpcenter:open', { area: t(topic.page) })}
                        </Link>
                      ) : (
                        <Link to={topic.to}>
                          {t('helpcenter:open', { area: 'page' in topic ? t(topic.page) : topic.title })}
                        </Link>
                      )}
                    </ChakraLink>
                  </Stack>
                </Accordion.ItemBody>
              </Accordion.ItemContent>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </Stack>
    </>
  );
}
