import { Button, chakra, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { EdiscoveryCase } from '@compliance-portal/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatDateTime } from '../../components/ui/format';
import { saveBlob } from '../../components/ui/save-blob';
import { useServerAction } from '../../offline/online';
import { useApi } from '../../shared/tenant';
import { ediscoveryKeys } from './api/keys';
import { casesQuery } from './api/queries';

/** The saved cases: open one's search again, export it, or remove it. */
export function Cases({ tenantId, onOpen }: { tenantId: string; onOpen: (c: EdiscoveryCase) => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<EdiscoveryCase | null>(null);
  const serverAction = useServerAction();
  const cases = useQuery(casesQuery(api, tenantId));
  const exportCase = useMutation({
    mutationFn: async (c: EdiscoveryCase) => {
      const file = await api.apollo.ediscovery.exportCase({ tenantId, caseId: c.caseId });
      saveBlob(file.blob, file.fileName ?? `case-${c.name}.zip`);
    },
  });
  const remove = useMutation({
    mutationFn: (c: EdiscoveryCase) => api.apollo.ediscovery.deleteCase({ tenantId, caseId: c.caseId }),
    onSuccess: () => {
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: ediscoveryKeys.cases(tenantId) });
    },
  });
  if (!cases.data?.length) return null;
  return (
    <Stack gap="2">
      <Text fontWeight="semibold">{t('ediscovery:cases')}</Text>
      <Table.ScrollArea
        borderWidth="1px"
        borderRadius="md"
        tabIndex={0}
        role="region"
        aria-label={t('ediscovery:cases')}
      >
        <Table.Root size="sm" aria-label={t('ediscovery:cases')}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('ediscovery:caseName')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('ediscovery:query')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('ediscovery:hitsWhenSaved')}</Table.ColumnHeader>
              <Table.ColumnHeader hideBelow="md">{t('ediscovery:saved')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('backup:columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cases.data.map((c) => (
              <Table.Row key={c.caseId}>
                <Table.Cell>{c.name}</Table.Cell>
                <Table.Cell>
                  <chakra.code fontSize="xs">{c.search.query || '*'}</chakra.code>
                </Table.Cell>
                <Table.Cell textAlign="end">{c.hits}</Table.Cell>
                <Table.Cell hideBelow="md">
                  {formatDateTime(c.createdAt, i18n.language)} · {c.createdBy}
                </Table.Cell>
                <Table.Cell>
                  <HStack gap="1">
                    <Button size="xs" variant="outline" onClick={() => onOpen(c)}>
                      {t('ediscovery:open')}
                    </Button>
                    <Button
                      size="xs"
                      variant="outline"
                      loading={exportCase.isPending && exportCase.variables?.caseId === c.caseId}
                      onClick={() => exportCase.mutate(c)}
                      {...serverAction}
                    >
                      {t('ediscovery:export')}
                    </Button>
                    <Button
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      onClick={() => setRemoving(c)}
                      {...serverAction}
                    >
                      {t('backup:remove')}
                    </Button>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <ConfirmDialog
        open={!!removing}
        title={t('ediscovery:removeTitle', { name: removing?.name ?? '' })}
        confirmLabel={t('backup:remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        {t('ediscovery:removeText')}
      </ConfirmDialog>
    </Stack>
  );
}
