import { Alert, Button, CloseButton, Drawer, List, Portal, Stack, Text } from '@chakra-ui/react';
import { ApiError, type EdiscoveryEventPreview, type EdiscoveryHit } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDate, formatDateTime } from '../../components/ui/format';
import { useServerAction } from '../../offline/online';
import { useApi } from '../../shared/tenant';
import { useEventDownload } from './api/downloads';
import { eventQuery } from './api/queries';
import { useMailFailure } from './mail-failure';

/** The answers Graph gives an attendee's response status, as the viewer names them. */
const RESPONSES = ['none', 'organizer', 'accepted', 'tentativelyAccepted', 'declined', 'notResponded'] as const;
type Response = (typeof RESPONSES)[number];
const isResponse = (value: string): value is Response => (RESPONSES as readonly string[]).includes(value);

/** When an event is: its start and end, or its days when it lasts all day (Graph ends those at midnight after). */
function useWhen() {
  const { t, i18n } = useTranslation();
  return (event: EdiscoveryEventPreview) => {
    if (event.isAllDay && event.start) {
      const lastDay = event.end ? new Date(Date.parse(event.end) - 1).toISOString() : event.start;
      const first = formatDate(event.start, i18n.language);
      const last = formatDate(lastDay, i18n.language);
      return t('ediscovery:event.allDay', { days: first === last ? first : `${first} – ${last}` });
    }
    return `${formatDateTime(event.start, i18n.language)} – ${formatDateTime(event.end, i18n.language)}`;
  };
}

/**
 * A found calendar event read in a drawer: organiser, when, location, calendar, attendees with their
 * answers, attachments and text, whether it was deleted since; downloadable as .ics.
 */
export function EventViewer({ tenantId, hit, onClose }: { tenantId: string; hit: EdiscoveryHit; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const serverAction = useServerAction();
  const failure = useMailFailure();
  const when = useWhen();
  const download = useEventDownload(api, tenantId);
  const event = useQuery(eventQuery(api, tenantId, hit.source, hit.itemId));
  const downloadFailure = failure(download.error);
  const data = event.data;
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{data?.subject || hit.subject || t('ediscovery:noSubject')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {data ? (
                <Stack gap="3">
                  {data.deletedAt ? (
                    <Alert.Root status="warning" data-testid="event-deleted">
                      <Alert.Indicator />
                      <Alert.Title>
                        {t('ediscovery:event.deleted', { date: formatDateTime(data.deletedAt, i18n.language) })}
                      </Alert.Title>
                    </Alert.Root>
                  ) : null}
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:event.organizer')}</strong> {data.organizer}
                  </Text>
                  <Text fontSize="sm" data-testid="event-when">
                    <strong>{t('ediscovery:event.when')}</strong> {when(data)}
                  </Text>
                  {data.location ? (
                    <Text fontSize="sm">
                      <strong>{t('ediscovery:event.location')}</strong> {data.location}
                    </Text>
                  ) : null}
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:event.calendar')}</strong> {`${hit.sourceName} · ${data.calendar}`}
                  </Text>
                  {data.attendees.length > 0 ? (
                    <Stack gap="1">
                      <Text fontSize="sm" fontWeight="bold">
                        {t('ediscovery:event.attendees')}
                      </Text>
                      <List.Root fontSize="sm" ps="4" data-testid="event-attendees">
                        {data.attendees.map((a) => (
                          <List.Item key={`${a.address}-${a.name}`}>
                            {a.name && a.address ? `${a.name} <${a.address}>` : a.name || a.address}
                            {' · '}
                            {t(`ediscovery:event.types.${a.type}`)}
                            {' · '}
                            {isResponse(a.response) ? t(`ediscovery:event.responses.${a.response}`) : a.response}
                          </List.Item>
                        ))}
                      </List.Root>
                    </Stack>
                  ) : null}
                  {data.attachments.length > 0 ? (
                    <Text fontSize="sm">
                      <strong>{t('ediscovery:event.attachments')}</strong> {data.attachments.join(', ')}
                    </Text>
                  ) : null}
                  <Text whiteSpace="pre-wrap" borderTopWidth="1px" pt="3" data-testid="preview-body">
                    {data.body}
                  </Text>
                  <Button
                    alignSelf="flex-start"
                    variant="outline"
                    size="sm"
                    loading={download.isPending}
                    onClick={() => download.mutate(hit)}
                    {...serverAction}
                  >
                    {t('ediscovery:event.downloadIcs')}
                  </Button>
                  {downloadFailure ? <StatusAlert status="error">{downloadFailure}</StatusAlert> : null}
                </Stack>
              ) : event.isError ? (
                <StatusAlert status="error">
                  {event.error instanceof ApiError && event.error.status === 403
                    ? t('ediscovery:needsProxyRight')
                    : t('ediscovery:previewFailed')}
                </StatusAlert>
              ) : (
                <Text>{t('common:loading')}</Text>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common:close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
