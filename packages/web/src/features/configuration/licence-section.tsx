import { Badge, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDate } from '../../components/ui/format';
import { useApi } from '../../shared/tenant';
import { licenceQuery } from './api/queries';

const APPLICATIONS = ['onedrive', 'sharepoint', 'teams'] as const;

export function LicenceSection({ organisationId }: { organisationId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const licence = useQuery(licenceQuery(api, organisationId));
  const l = licence.data;
  if (licence.isError) return <StatusAlert status="error">{t('configuration:failed')}</StatusAlert>;
  if (!l) return <Skeleton height="24" aria-busy="true" />;
  return (
    <Stack gap="3" data-testid="licence">
      <Text>
        {t('configuration:licenceKind')}:{' '}
        <Badge colorPalette={l.kind === 'trial' ? 'orange' : 'green'}>{t(`configuration:kinds.${l.kind}`)}</Badge>
        {l.validUntil ? ` · ${t('configuration:validUntil')} ${formatDate(l.validUntil, i18n.language)}` : ''}
      </Text>
      {!l.limits ? (
        <Text>{t('configuration:noLimits')}</Text>
      ) : (
        <>
          <Text fontSize="sm">{t('configuration:sourcesPerBackup', { count: l.limits.sourcesPerBackup })}</Text>
          <Table.ScrollArea tabIndex={0}>
            <Table.Root size="sm" aria-label={t('configuration:licence')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader />
                  <Table.ColumnHeader>{t('configuration:application')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('configuration:limit')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('configuration:used')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('configuration:left')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {(
                  [
                    ['backupJobs', l.limits.backupJobsPerApplication, l.used.backupJobs],
                    ['restores', l.limits.restoresPerApplication, l.used.restores],
                  ] as const
                ).flatMap(([what, limit, used]) =>
                  APPLICATIONS.map((app) => (
                    <Table.Row key={`${what}-${app}`}>
                      <Table.Cell>{t(`configuration:${what}`)}</Table.Cell>
                      <Table.Cell>{t(`backup:applications.${app}`)}</Table.Cell>
                      <Table.Cell textAlign="end">{limit}</Table.Cell>
                      <Table.Cell textAlign="end">{used[app]}</Table.Cell>
                      <Table.Cell textAlign="end">{Math.max(0, limit - used[app])}</Table.Cell>
                    </Table.Row>
                  )),
                )}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </>
      )}
    </Stack>
  );
}
