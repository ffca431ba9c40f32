import { Accordion, Link as ChakraLink, Field, Input, Stack, Text } from '@chakra-ui/react';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FirstRunGuideReopen } from '../../components/first-run-guide-reopen';
import type { HelpcenterSearch } from '../../components/help/search';
import { HELP_TOPICS, type HelpTopic } from '../../components/help/topics';
import { PageHeader } from '../../components/ui/page-header';
import { useWorker } from '../../session/use-worker';

/** The question and answer keys of each topic's own articles (distributed over the topics, so not crossed). */
type ArticleKey<T extends HelpTopic = HelpTopic> = T extends HelpTopic
  ? `helpcenter:topics.${T['id']}.${T['articles'][number]}${'q' | 'a'}`
  : never;

/**
 * The key of an article's question or answer. Cast in this one place: a template literal of `topic.id`
 * and `article` would cross every topic with every article; `ArticleKey` pairs each topic with its own,
 * and `t()` checks that those keys exist.
 */
function articleKey<T extends HelpTopic>(topic: T, article: T['articles'][number], part: 'q' | 'a') {
  return `helpcenter:topics.${topic.id}.${article}${part}` as ArticleKey<T>;
}

/** The topic and the article the address asks for, when the help center has them. */
function askedFor(search: HelpcenterSearch) {
  const topic = HELP_TOPICS.find((known) => known.id === search.topic);
  const article = topic?.articles.find((known: string) => known === search.article);
  return { topic: topic?.id, article };
}

/**
 * Help topics for each area, searchable over titles, questions and answers. A page's help link opens
 * its topic here (`?topic=backup&article=a2`): the topic is expanded and its article (or, without one,
 * the topic's heading) scrolled to, marked and focused, so a screen reader reads it next.
 */
export function HelpcenterPage({ search }: { search: HelpcenterSearch }) {
  const { t } = useTranslation();
  const worker = useWorker();
  const router = useRouter();
  const asked = askedFor(search);
  const askedArticle = useRef<HTMLDivElement>(null);
  const askedTopic = useRef<HTMLButtonElement>(null);
  const [query, setQuery] = useState('');
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => words.every((w) => text.toLowerCase().includes(w));
  const topics = HELP_TOPICS.map((topic) => {
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
  // Once, when the page opens: the route gives each asked-for place a page of its own (its key). The
  // router sets the window's scroll after the page has rendered (a new page at the top), so the place
  // is shown again then.
  useEffect(() => {
    const element = askedArticle.current ?? askedTopic.current;
    if (!element) return;
    const show = () => element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
    show();
    const stop = router.subscribe('onRendered', () => {
      stop();
      show();
    });
    return stop;
  }, [router]);
  return (
    <>
      <PageHeader title={t('pages:helpcenter')} description={t('helpcenter:intro')} />
      <Stack gap="4" maxW="4xl">
        {/* The guide is the selected organisation's: without one (a partner before choosing a client) it has none. */}
        {worker ? <FirstRunGuideReopen /> : null}
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
          defaultValue={asked.topic ? [asked.topic] : []}
          {...(words.length > 0 ? { value: topics.map((topic) => topic.id) } : {})}
          variant="enclosed"
        >
          {topics.map((topic) => {
            const isAsked = topic.id === asked.topic;
            return (
              <Accordion.Item key={topic.id} value={topic.id} data-testid={`topic-${topic.id}`}>
                <Accordion.ItemTrigger ref={isAsked ? askedTopic : undefined} scrollMarginTop="20">
                  <Text as="h2" flex="1" fontWeight="semibold">
                    {topic.title}
                  </Text>
                  <Accordion.ItemIndicator />
                </Accordion.ItemTrigger>
                <Accordion.ItemContent>
                  <Accordion.ItemBody>
                    <Stack gap="3">
                      {topic.articles.map((article) => {
                        const headingId = `help-${topic.id}-${article.id}`;
                        const isTarget = isAsked && article.id === asked.article;
                        return (
                          <Stack
                            key={article.id}
                            gap="1"
                            as="article"
                            aria-labelledby={headingId}
                            data-testid={headingId}
                            {...(isTarget
                              ? {
                                  ref: askedArticle,
                                  tabIndex: -1,
                                  'aria-current': 'location' as const,
                                  colorPalette: 'blue',
                                  bg: 'colorPalette.subtle',
                                  borderStartWidth: '4px',
                                  borderColor: 'colorPalette.solid',
                                  rounded: 'l2',
                                  p: '3',
                                  focusRing: 'outside',
                                  scrollMarginTop: '20',
                                }
                              : {})}
                          >
                            <Text as="h3" fontWeight="medium" id={headingId}>
                              {article.q}
                            </Text>
                            <Text>{article.a}</Text>
                          </Stack>
                        );
                      })}
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
            );
          })}
        </Accordion.Root>
      </Stack>
    </>
  );
}
