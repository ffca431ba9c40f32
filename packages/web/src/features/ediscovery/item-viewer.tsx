import { Button, CloseButton, Drawer, Portal, Stack, Text } from '@chakra-ui/react';
import { ApiError, type EdiscoveryHit } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { useServerAction } from '../../offline/online';
import { useApi, useTenant } from '../../shared/tenant';
import { useHitDownload } from './api/downloads';
import { itemQuery } from './api/queries';
import { EventViewer } from './event-viewer';
import { useMailFailure } from './mail-failure';

/** A hit read in a drawer: a calendar event as one, a mail or message as the other. */
export function ItemViewer(props: { tenantId: string; hit: EdiscoveryHit; onClose: () => void }) {
  return props.hit.kind === 'event' ? <EventViewer {...props} /> : <MessageViewer {...props} />;
}

/** A mail or message read in a drawer: sender, recipients, date and text; a mail can be downloaded as .eml. */
function MessageViewer({ tenantId, hit, onClose }: { tenantId: string; hit: EdiscoveryHit; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const serverAction = useServerAction();
  const failure = useMailFailure();
  const download = useHitDownload(api, workerIp);
  const item = useQuery(itemQuery(api, tenantId, hit.itemId));
  const downloadFailure = failure(download.error);
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{item.data?.subject || t('ediscovery:noSubject')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {item.data ? (
                <Stack gap="3">
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:from')}</strong> {item.data.sender}
                  </Text>
                  {item.data.recipients ? (
                    <Text fontSize="sm">
                      <strong>{t('ediscovery:to')}</strong> {item.data.recipients}
                    </Text>
                  ) : null}
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:sent')}</strong> {formatDateTime(item.data.sentAt, i18n.language)}
                  </Text>
                  <Text whiteSpace="pre-wrap" borderTopWidth="1px" pt="3" data-testid="preview-body">
                    {item.data.body}
                  </Text>
                  {hit.kind === 'mail' ? (
                    <Button
                      alignSelf="flex-start"
                      variant="outline"
                      size="sm"
                      loading={download.isPending}
                      onClick={() => download.mutate(hit)}
                      {...serverAction}
                    >
                      {t('ediscovery:downloadEml')}
                    </Button>
                  ) : null}
                  {downloadFailure ? <StatusAlert status="error">{downloadFailure}</StatusAlert> : null}
                </Stack>
              ) : item.isError ? (
                <StatusAlert status="error">
                  {item.error instanceof ApiError && item.error.status === 403
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
