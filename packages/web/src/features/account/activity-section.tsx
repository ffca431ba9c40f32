/**
 * Sign-in activity: the account's signed-in sessions (sessions-section.tsx), and its recent sign-ins
 * and failed attempts from the audit log, a page at a time (the page in the URL).
 */
import { Badge, Button, Card, Flex, Heading, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { SignInEvent } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { ACTIVITY_PAGE_SIZE, signInActivityQuery } from './api/queries';
import { SessionsSection } from './sessions-section';
import { WRAPPING_LABEL } from './wrapping';

function EventItem({ event }: { event: SignInEvent }) {
  const { t, i18n } = useTranslation();
  const what = [
    t(`accountSecurity:activity.kinds.${event.kind}`),
    event.method ? t(`accountSecurity:activity.methods.${event.method}`) : null,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <List.Item
      py="2"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      data-testid="sign-in-event"
      data-kind={event.kind}
    >
      <Flex gap="2" wrap="wrap" align="baseline">
        <Badge colorPalette={event.outcome === 'success' ? 'green' : 'red'} variant="subtle">
          {t(`accountSecurity:activity.outcomes.${event.outcome}`)}
        </Badge>
        <Text fontWeight="medium">{what}</Text>
      </Flex>
      <Text fontSize="sm" color="fg.muted">
        <time dateTime={event.at}>{formatDateTime(event.at, i18n.language)}</time>
        {' · '}
        {event.ip ? t('accountSecurity:activity.from', { ip: event.ip }) : t('accountSecurity:activity.unknownAddress')}
        {' · '}
        {t(`accountSecurity:activity.apis.${event.api}`)}
      </Text>
    </List.Item>
  );
}

/** The activity tab; `page` is the page of events (one-based), kept in the URL by the caller. */
export function ActivitySection({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const activity = useQuery(signInActivityQuery(api, page));
  const pages = Math.max(1, Math.ceil((activity.data?.total ?? 0) / ACTIVITY_PAGE_SIZE));
  const headingId = useId();
  return (
    <Stack gap="4" maxW="3xl">
      <SessionsSection />
      <Card.Root as="section" aria-labelledby={headingId} data-testid="sign-in-activity">
        <Card.Body gap="3">
          <Heading as="h2" size="md" id={headingId}>
            {t('accountSecurity:activity.title')}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {t('accountSecurity:activity.intro')}
          </Text>
          {activity.isPending ? (
            <Stack gap="3" data-testid="activity-loading">
              {Array.from({ length: 3 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity.
                <Skeleton key={i} height="10" />
              ))}
            </Stack>
          ) : activity.isError ? (
            <Stack gap="2">
              <StatusAlert status="error">{t('accountSecurity:activity.failed')}</StatusAlert>
              <Button {...WRAPPING_LABEL} alignSelf="flex-start" size="sm" onClick={() => void activity.refetch()}>
                {t('common:retry')}
              </Button>
            </Stack>
          ) : activity.data.items.length === 0 ? (
            <Text data-testid="activity-empty">{t('accountSecurity:activity.empty')}</Text>
          ) : (
            <>
              <List.Root as="ul" listStyle="none" aria-label={t('accountSecurity:activity.list')}>
                {activity.data.items.map((event, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: events have no id, and a page never reorders.
                  <EventItem key={index} event={event} />
                ))}
              </List.Root>
              {pages > 1 ? (
                <Flex gap="2" align="center" wrap="wrap">
                  <Button
                    {...WRAPPING_LABEL}
                    size="sm"
                    variant="outline"
                    disabled={page <= 1}
                    onClick={() => onPage(page - 1)}
                  >
                    {t('accountSecurity:activity.newer')}
                  </Button>
                  <Text fontSize="sm" aria-live="polite">
                    {t('accountSecurity:activity.page', { page, pages })}
                  </Text>
                  <Button
                    {...WRAPPING_LABEL}
                    size="sm"
                    variant="outline"
                    disabled={page >= pages}
                    onClick={() => onPage(page + 1)}
                  >
                    {t('accountSecurity:activity.older')}
                  </Button>
                </Flex>
              ) : null}
            </>
          )}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
