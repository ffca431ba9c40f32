import { Stack, Text } from '@chakra-ui/react';
import type { Tenant } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../components/ui/format';
import { useApi } from '../../shared/tenant';
import { tenantRemovalPreviewQuery } from './api/removal-preview';

/**
 * What removing a tenant deletes, in numbers counted when the confirmation opens: its jobs with their
 * runs, its storage locations and its eDiscovery cases (and the legal holds that end with them); that
 * another tenant becomes the active one; that it cannot be undone.
 */
export function TenantRemovalText({ tenant, othersLeft }: { tenant: Tenant; othersLeft: boolean }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const lang = i18n.language;
  const preview = useQuery(tenantRemovalPreviewQuery(api, tenant.tenantId));
  const n = (count: number) => ({ count, n: formatNumber(count, lang) });
  const data = preview.data;
  return (
    <Stack gap="2" data-testid="tenant-removal">
      {data ? (
        <>
          <Text fontWeight="semibold" data-testid="tenant-removal-what">
            {t('confirmations:tenant.text', {
              name: tenant.tenantName,
              jobs: t('confirmations:tenant.jobs', n(data.jobs)),
              locations: t('confirmations:tenant.locations', n(data.locations)),
              cases: t('confirmations:tenant.cases', n(data.cases)),
            })}
          </Text>
          {data.heldCases > 0 ? (
            <Text data-testid="tenant-removal-held">{t('confirmations:tenant.held', n(data.heldCases))}</Text>
          ) : null}
        </>
      ) : preview.isError ? (
        <Text data-testid="tenant-removal-what">
          {t('configuration:removeTenantText', { name: tenant.tenantName })} {t('confirmations:tenant.previewFailed')}
        </Text>
      ) : (
        <Text color="fg.muted">{t('confirmations:tenant.loading')}</Text>
      )}
      {tenant.isActive && othersLeft ? <Text>{t('confirmations:tenant.active')}</Text> : null}
    </Stack>
  );
}
