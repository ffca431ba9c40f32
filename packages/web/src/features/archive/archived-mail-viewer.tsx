import { Button, CloseButton, Drawer, HStack, List, Portal, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatBytes, formatDateTime } from '../../components/ui/format';
import { useServerAction } from '../../offline/online';
import { useApi, useTenant } from '../../shared/tenant';
import { archivedItemQuery } from './api/browse-queries';
import { useArchivedMailDownload } from './api/downloads';
import { useMailReadFailure } from './mail-read-failure';

function Header({ label, value }: { label: string; value: string }) {
  if (!value) return null;
  return (
    <Text fontSize="sm" wordBreak="break-word">
      <strong>{label}</strong> {value}
    </Text>
  );
}

/**
 * An archived mail read in a drawer: its headers, attachments and text (shown as text, never as HTML),
 * with its download as .eml and its restore; a refusal is said in words.
 */
export function ArchivedMailViewer({
  tenantId,
  mailboxId,
  itemId,
  onRestore,
  onClose,
}: {
  tenantId: string;
  mailboxId: string;
  itemId: string;
  onRestore: (mail: { itemId: string; subject: string }) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const serverAction = useServerAction();
  const failure = useMailReadFailure();
  const item = useQuery(archivedItemQuery(api, tenantId, itemId));
  const download = useArchivedMailDownload(api, workerIp, mailboxId);
  const mail = item.data;
  const lang = i18n.language;
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'lg' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header pe="12">
              <Drawer.Title wordBreak="break-word">
                {mail ? mail.subject || t('archiveBrowse:noSubject') : t('common:loading')}
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {mail ? (
                <Stack gap="3">
                  <Stack gap="1" data-testid="mail-headers">
                    <Header label={t('archiveBrowse:from')} value={mail.from} />
                    <Header label={t('archiveBrowse:to')} value={mail.to} />
                    <Header label={t('archiveBrowse:cc')} value={mail.cc} />
                    <Header label={t('archiveBrowse:date')} value={formatDateTime(mail.sentAt, lang)} />
                    <Header label={t('archiveBrowse:folder')} value={mail.container} />
                    <Header label={t('archiveBrowse:size')} value={formatBytes(mail.sizeBytes, lang)} />
                  </Stack>
                  <Stack gap="1">
                    <Text fontSize="sm" fontWeight="semibold">
                      {t('archiveBrowse:attachments')}
                    </Text>
                    {mail.attachments.length === 0 ? (
                      <Text fontSize="sm" color="fg.muted">
                        {t('archiveBrowse:noAttachments')}
                      </Text>
                    ) : (
                      <List.Root fontSize="sm" ps="4" aria-label={t('archiveBrowse:attachments')}>
                        {mail.attachments.map((a, n) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: attachments have no id; an archived item's list never changes.
                          <List.Item key={`${a.name}-${n}`} wordBreak="break-word">
                            {a.name} ({a.sizeBytes === null ? '—' : formatBytes(a.sizeBytes, lang)})
                          </List.Item>
                        ))}
                      </List.Root>
                    )}
                  </Stack>
                  <Text
                    whiteSpace="pre-wrap"
                    wordBreak="break-word"
                    borderTopWidth="1px"
                    pt="3"
                    data-testid="mail-body"
                  >
                    {mail.body}
                  </Text>
                  <HStack gap="2" wrap="wrap">
                    <Button
                      variant="outline"
                      size="sm"
                      loading={download.isPending}
                      onClick={() => download.mutate(mail)}
                      {...serverAction}
                    >
                      {t('archiveBrowse:download')}
                    </Button>
                    <Button
                      size="sm"
                      colorPalette="blue"
                      onClick={() => onRestore({ itemId: mail.itemId, subject: mail.subject })}
                      {...serverAction}
                    >
                      {t('archiveBrowse:restoreTrigger')}
                    </Button>
                  </HStack>
                  {download.error ? <StatusAlert status="error">{failure(download.error)}</StatusAlert> : null}
                </Stack>
              ) : item.isError ? (
                <StatusAlert status="error">
                  <span data-testid="mail-failure">{failure(item.error) ?? t('archiveBrowse:previewFailed')}</span>
                </StatusAlert>
              ) : (
                <Text aria-busy="true">{t('common:loading')}</Text>
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
