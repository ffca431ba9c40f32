import {
  Box,
  Button,
  Link as ChakraLink,
  chakra,
  Grid,
  HStack,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ArchivedAttachment, TeamsArchiveNode, TeamsPost, TeamsThread } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { isNotFound } from '../../errors/api-errors';
import { RequireTenant, useApi } from '../../shared/tenant';
import { useUrlFilter, useUrlListState } from '../../shared/url-state';
import { teamsThreadsQuery, teamsTreeQuery } from './api/browse-queries';
import { placeOf, THREADS, threadsQueryOf } from './api/browse-search';

/** The route whose address keeps the place chosen and its list of threads. */
const ROUTE = '/_app/_worker/teams/archive';

/** Replies shown under a post before "Show more". */
const REPLIES_SHOWN = 3;

function Attachments({ attachments }: { attachments: readonly ArchivedAttachment[] }) {
  const { t, i18n } = useTranslation();
  if (attachments.length === 0) return null;
  return (
    <Stack gap="1" as="ul" listStyleType="none" aria-label={t('teamsBrowse:attachments')}>
      {attachments.map((a, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: attachments have no id; an archived item's list never changes.
        <HStack as="li" key={`${a.name}-${n}`} gap="2" wrap="wrap" fontSize="sm">
          {a.url ? (
            <ChakraLink
              href={a.url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('teamsBrowse:openFile', { name: a.name })}
            >
              {a.name}
            </ChakraLink>
          ) : (
            <Text as="span">{a.name}</Text>
          )}
          <Text as="span" color="fg.muted">
            {a.sizeBytes === null ? t('teamsBrowse:sizeUnknown') : formatBytes(a.sizeBytes, i18n.language)}
          </Text>
        </HStack>
      ))}
    </Stack>
  );
}

function Post({ post, reply = false }: { post: TeamsPost; reply?: boolean }) {
  const { i18n } = useTranslation();
  return (
    <Stack gap="1" data-testid={reply ? 'teams-reply' : 'teams-post'}>
      <HStack gap="2" wrap="wrap" align="baseline">
        <Text fontWeight="semibold">{post.author || '—'}</Text>
        <chakra.time fontSize="sm" color="fg.muted" {...(post.created ? { dateTime: post.created } : {})}>
          {formatDateTime(post.created, i18n.language)}
        </chakra.time>
      </HStack>
      {post.subject ? <Text fontWeight="medium">{post.subject}</Text> : null}
      <Text whiteSpace="pre-wrap" wordBreak="break-word">
        {post.body}
      </Text>
      <Attachments attachments={post.attachments} />
    </Stack>
  );
}

function Thread({ thread }: { thread: TeamsThread }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const shown = all ? thread.replies : thread.replies.slice(0, REPLIES_SHOWN);
  const more = thread.replies.length - shown.length;
  return (
    <Box as="article" borderWidth="1px" borderRadius="md" p="3" data-testid="teams-thread">
      <Post post={thread.post} />
      {thread.replies.length > 0 ? (
        <Stack gap="3" mt="3" ms={{ base: '2', md: '6' }} ps="3" borderStartWidth="2px">
          <Text fontSize="sm" color="fg.muted">
            {t('teamsBrowse:replies', { count: thread.replies.length })}
          </Text>
          {shown.map((r) => (
            <Post key={r.itemId} post={r} reply />
          ))}
          {more > 0 || all ? (
            <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => setAll(!all)}>
              {all ? t('teamsBrowse:hideReplies') : t('teamsBrowse:showReplies', { count: more })}
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Box>
  );
}

/** The choice of a channel or chat: teams with their channels, then chats, each with its messages. */
function PlaceChoice({
  nodes,
  value,
  onChange,
}: {
  nodes: readonly TeamsArchiveNode[];
  value: string;
  onChange: (at: string) => void;
}) {
  const { t } = useTranslation();
  const count = (n: number) => t('teamsBrowse:messages', { count: n });
  const teams = nodes.filter((n) => n.kind === 'team');
  const chats = nodes.filter((n) => n.kind === 'chat');
  return (
    <Stack gap="1" hideFrom="md">
      <chakra.label htmlFor="teams-archive-place" fontSize="sm" fontWeight="medium">
        {t('teamsBrowse:choose')}
      </chakra.label>
      <NativeSelect.Root>
        <NativeSelect.Field id="teams-archive-place" value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{t('teamsBrowse:choose')}</option>
          {teams.map((team) => (
            <optgroup key={team.nodeId} label={team.name}>
              {team.children.map((c) => (
                <option key={c.nodeId} value={`t/${team.nodeId}/${c.name}`}>
                  {`${team.name} › ${c.name} (${count(c.messageCount)})`}
                </option>
              ))}
            </optgroup>
          ))}
          {chats.length > 0 ? (
            <optgroup label={t('teamsBrowse:chats')}>
              {chats.map((c) => (
                <option key={c.nodeId} value={`c/${c.nodeId}`}>
                  {`${c.name} (${count(c.messageCount)})`}
                </option>
              ))}
            </optgroup>
          ) : null}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Stack>
  );
}

/** The same choice as a list beside the messages, on wide screens: every channel and chat in sight. */
function PlaceList({ nodes, value }: { nodes: readonly TeamsArchiveNode[]; value: string }) {
  const { t } = useTranslation();
  const count = (n: number) => t('teamsBrowse:messages', { count: n });
  const teams = nodes.filter((n) => n.kind === 'team');
  const chats = nodes.filter((n) => n.kind === 'chat');
  const entry = (at: string, name: string, messages: number) => (
    <chakra.li key={at}>
      <ChakraLink asChild fontSize="sm" fontWeight={value === at ? 'semibold' : 'normal'} wordBreak="break-word">
        <Link to="/teams/archive" search={{ at }} aria-current={value === at ? 'page' : undefined}>
          {name} <chakra.span color="fg.muted">({count(messages)})</chakra.span>
        </Link>
      </ChakraLink>
    </chakra.li>
  );
  const group = (key: string, title: string, items: ReactNode[]) => (
    <Stack key={key} gap="1">
      <Text fontSize="sm" fontWeight="semibold" wordBreak="break-word">
        {title}
      </Text>
      <Stack as="ul" listStyleType="none" gap="1" ps="2">
        {items}
      </Stack>
    </Stack>
  );
  return (
    <chakra.nav aria-label={t('teamsBrowse:conversations')} hideBelow="md" data-testid="teams-archive-places">
      <Stack gap="4">
        {teams.map((team) =>
          group(
            team.nodeId,
            team.name,
            team.children.map((c) => entry(`t/${team.nodeId}/${c.name}`, c.name, c.messageCount)),
          ),
        )}
        {chats.length > 0
          ? group(
              'chats',
              t('teamsBrowse:chats'),
              chats.map((c) => entry(`c/${c.nodeId}`, c.name, c.messageCount)),
            )
          : null}
      </Stack>
    </chakra.nav>
  );
}

/** The name of the chosen place: "Team › Channel" or the chat's name. */
function placeName(nodes: readonly TeamsArchiveNode[], at: string): string {
  const place = placeOf(at);
  if (!place) return '';
  const node = nodes.find((n) => n.nodeId === place.source);
  if (!node) return place.channel ?? '';
  return place.channel ? `${node.name} › ${place.channel}` : node.name;
}

function TeamsArchive({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const tree = useQuery(teamsTreeQuery(api, tenantId));
  const [at, setAt] = useUrlFilter<string>(ROUTE, 'at', '');
  const [state, setState] = useUrlListState(ROUTE, THREADS);
  const query = threadsQueryOf(at, state);
  const threads = useQuery(
    teamsThreadsQuery(api, tenantId, query ?? { source: '', page: 1, pageSize: THREADS.pageSize }),
  );
  const nodes = tree.data ?? [];
  const pages = Math.max(1, Math.ceil((threads.data?.total ?? 0) / state.pageSize));
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: '16rem minmax(0, 1fr)' }} gap="6" alignItems="start">
      {tree.isError ? (
        <Stack gap="2" align="flex-start" gridColumn="1 / -1">
          <StatusAlert status="error">{t('teamsBrowse:treeFailed')}</StatusAlert>
          <Button size="sm" variant="outline" onClick={() => void tree.refetch()}>
            {t('common:retry')}
          </Button>
        </Stack>
      ) : !tree.data ? (
        <Skeleton height="10" aria-busy="true" />
      ) : nodes.length === 0 ? (
        <Text color="fg.muted" data-testid="teams-archive-empty" gridColumn="1 / -1">
          {t('teamsBrowse:nothing')}
        </Text>
      ) : (
        <Stack gap="4">
          <PlaceChoice nodes={nodes} value={at} onChange={setAt} />
          <PlaceList nodes={nodes} value={at} />
        </Stack>
      )}
      {!query ? (
        nodes.length > 0 ? (
          <Text color="fg.muted">{t('teamsBrowse:chooseHint')}</Text>
        ) : null
      ) : (
        <Stack gap="3" as="section" aria-label={t('teamsBrowse:threads', { name: placeName(nodes, at) })}>
          <HStack justify="space-between" wrap="wrap" gap="2">
            <chakra.h2 fontSize="lg" fontWeight="semibold" wordBreak="break-word">
              {t('teamsBrowse:threads', { name: placeName(nodes, at) })}
            </chakra.h2>
            {threads.data ? (
              <Text fontSize="sm" color="fg.muted">
                {t('teamsBrowse:threadCount', { count: threads.data.total })}
              </Text>
            ) : null}
          </HStack>
          {threads.isError && isNotFound(threads.error) ? (
            // Nothing archived here that the reader may read (a chat of other people's mailboxes).
            <Text color="fg.muted" data-testid="teams-no-threads">
              {t('teamsBrowse:noThreads')}
            </Text>
          ) : threads.isError ? (
            <Stack gap="2" align="flex-start">
              <StatusAlert status="error">{t('teamsBrowse:loadFailed')}</StatusAlert>
              <Button size="sm" variant="outline" onClick={() => void threads.refetch()}>
                {t('common:retry')}
              </Button>
            </Stack>
          ) : !threads.data ? (
            <Stack gap="2" aria-busy="true">
              <Skeleton height="20" />
              <Skeleton height="20" />
            </Stack>
          ) : threads.data.items.length === 0 ? (
            <Text color="fg.muted">{t('teamsBrowse:noThreads')}</Text>
          ) : (
            <Stack gap="3" aria-busy={threads.isFetching || undefined}>
              {threads.data.items.map((thread) => (
                <Thread key={thread.post.itemId} thread={thread} />
              ))}
            </Stack>
          )}
          {pages > 1 ? (
            <HStack gap="2" wrap="wrap">
              <Button
                size="sm"
                variant="outline"
                disabled={state.page <= 1}
                onClick={() => setState({ page: state.page - 1 })}
              >
                {t('teamsBrowse:previous')}
              </Button>
              <Text fontSize="sm">{t('teamsBrowse:page', { page: state.page, pages })}</Text>
              <Button
                size="sm"
                variant="outline"
                disabled={state.page >= pages}
                onClick={() => setState({ page: state.page + 1 })}
              >
                {t('teamsBrowse:next')}
              </Button>
            </HStack>
          ) : null}
        </Stack>
      )}
    </Grid>
  );
}

/**
 * Archived Teams messages (/teams/archive): a team's channel or a chat chosen by name, its threads
 * newest first with their replies under them (the first three, then all on request), authors, times
 * and attachments; paged in the address.
 */
export function TeamsArchivePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:teamsMessages')} description={t('teamsBrowse:description')} help="teamsArchive.a4" />
      <RequireTenant>{(tenantId) => <TeamsArchive tenantId={tenantId} />}</RequireTenant>
    </>
  );
}
