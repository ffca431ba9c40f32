import { chakra, NativeSelect, Stack } from '@chakra-ui/react';
import type { EdiscoveryHit } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { isNotFound } from '../../errors/api-errors';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { useApi, useTenant } from '../../shared/tenant';
import { useRestoreMails } from './api/mutations';
import { useMailFailure } from './mail-failure';

/** Puts the chosen mails back, as archived, into a folder of their mailbox or of another one. */
export function RestoreMail({
  tenantId,
  hits,
  onClose,
}: {
  tenantId: string;
  hits: EdiscoveryHit[];
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const locations = useQuery(locationsQuery(api, tenantId));
  const names = useQuery(sourceNamesQuery(api, tenantId, locations.data?.[0]?.locationId ?? '', 'exchange'));
  const [target, setTarget] = useState('');
  const [folder, setFolder] = useState('Restored');
  const failure = useMailFailure();
  const restore = useRestoreMails(api, tenantId, workerIp, () => {
    showToast('success', t('ediscovery:restoreStarted', { count: hits.length }));
    onClose(true);
  });
  return (
    <ConfirmDialog
      open
      title={t('ediscovery:restoreTitle', { count: hits.length })}
      confirmLabel={t('ediscovery:restore')}
      pending={restore.isPending}
      onConfirm={() => restore.mutate({ hits, targetMailbox: target, targetFolder: folder.trim() })}
      onCancel={() => onClose(false)}
    >
      <Stack gap="3">
        <Stack gap="1">
          <chakra.label htmlFor="restore-mail-target" fontSize="sm" fontWeight="medium">
            {t('ediscovery:restoreInto')}
          </chakra.label>
          <NativeSelect.Root>
            <NativeSelect.Field id="restore-mail-target" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">{t('ediscovery:originalMailbox')}</option>
              {[...(names.data ?? new Map<string, string>())].map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        <TextField
          label={t('ediscovery:restoreFolder')}
          value={folder}
          maxLength={400}
          onChange={(e) => setFolder(e.target.value)}
          error={null}
          showError={false}
        />
        {restore.error ? (
          <StatusAlert status="error">
            {/* The mails' archive job is gone (404): said in the catalogue's own words. */}
            {isNotFound(restore.error) ? t('errors:exchangeJobNotFound') : failure(restore.error)}
          </StatusAlert>
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}
