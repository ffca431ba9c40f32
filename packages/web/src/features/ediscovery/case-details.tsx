import { Badge, CloseButton, chakra, Drawer, Portal, Stack, Table, Text } from '@chakra-ui/react';
import type { EdiscoveryCase, EdiscoveryCustodian } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../components/ui/format';

/**
 * A case on its own: its search, its custodians by name and, while it is held, since when, by whom and
 * how many items the hold keeps of each custodian (counts only: the items themselves are read where
 * the reader may read them).
 */
export function CaseDetails({ found, onClose }: { found: EdiscoveryCase; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const hold = found.hold;
  const custodians: (EdiscoveryCustodian & { items?: number })[] = hold ? hold.custodians : found.custodians;
  return (
    <Drawer.Root open onOpenChange={(e) => !e.open && onClose()} size={{ base: 'full', md: 'md' }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{t('ediscovery:details.title', { name: found.name })}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <Stack gap="1">
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:query')}</strong>{' '}
                    <chakra.code fontSize="xs" wordBreak="break-word">
                      {found.search.query || '*'}
                    </chakra.code>
                  </Text>
                  <Text fontSize="sm">
                    <strong>{t('ediscovery:saved')}</strong> {formatDateTime(found.createdAt, lang)} · {found.createdBy}
                  </Text>
                </Stack>
                <Stack gap="1" data-testid="case-hold">
                  {hold ? (
                    <>
                      <Badge alignSelf="flex-start" colorPalette="orange" variant="solid">
                        {t('ediscovery:hold.column')}
                      </Badge>
                      <Text fontSize="sm">
                        {t('ediscovery:hold.since', { date: formatDateTime(hold.heldAt, lang), count: hold.items })}
                      </Text>
                      <Text fontSize="sm" color="fg.muted">
                        {t('ediscovery:hold.by', { email: hold.heldBy })}
                      </Text>
                    </>
                  ) : (
                    <Text fontSize="sm" color="fg.muted">
                      {t('ediscovery:hold.none')}
                    </Text>
                  )}
                </Stack>
                <Stack gap="2">
                  <Text as="h3" fontWeight="semibold">
                    {t('ediscovery:custodians.title')}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    {hold ? t('ediscovery:custodians.heldExplain') : t('ediscovery:custodians.explain')}
                  </Text>
                  {custodians.length === 0 ? (
                    <Text fontSize="sm" data-testid="no-custodians">
                      {t('ediscovery:custodians.none')}
                    </Text>
                  ) : (
                    <Table.ScrollArea borderWidth="1px" borderRadius="md">
                      <Table.Root size="sm" aria-label={t('ediscovery:custodians.title')}>
                        <Table.Header>
                          <Table.Row>
                            <Table.ColumnHeader>{t('ediscovery:custodians.name')}</Table.ColumnHeader>
                            <Table.ColumnHeader>{t('ediscovery:custodians.kind')}</Table.ColumnHeader>
                            {hold ? (
                              <Table.ColumnHeader textAlign="end">
                                {t('ediscovery:custodians.items')}
                              </Table.ColumnHeader>
                            ) : null}
                          </Table.Row>
                        </Table.Header>
                        <Table.Body>
                          {custodians.map((c) => (
                            <Table.Row key={`${c.kind}:${c.id}`}>
                              <Table.Cell>{c.name}</Table.Cell>
                              <Table.Cell>{t(`ediscovery:custodians.kinds.${c.kind}`)}</Table.Cell>
                              {hold ? (
                                <Table.Cell textAlign="end">{formatNumber(c.items ?? 0, lang)}</Table.Cell>
                              ) : null}
                            </Table.Row>
                          ))}
                        </Table.Body>
                      </Table.Root>
                    </Table.ScrollArea>
                  )}
                </Stack>
              </Stack>
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
