import { Stack, Text } from '@chakra-ui/react';
import type { RestoreStarted } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { isNotFound } from '../../errors/api-errors';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { useApi, useTenant } from '../../shared/tenant';
import { useRestoreArchivedMail } from './api/mutations';
import { useMailReadFailure } from './mail-read-failure';
import { MailboxTargetSelect } from './mailbox-target-select';

const DEFAULT_FOLDER = 'Restored';

/**
 * Asks before archived mails of one mailbox are put back: how many, from which mailbox, into which
 * mailbox (the original one or another) and folder; a refusal is said here, in words.
 */
export function RestoreArchivedMail({
  tenantId,
  mailbox,
  mails,
  onClose,
}: {
  tenantId: string;
  mailbox: { mailboxId: string; name: string };
  mails: readonly { itemId: string; subject: string }[];
  onClose: (started: (RestoreStarted & { into: string; count: number }) | null) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const locations = useQuery(locationsQuery(api, tenantId));
  const names = useQuery(sourceNamesQuery(api, tenantId, locations.data?.[0]?.locationId ?? '', 'exchange'));
  const [target, setTarget] = useState('');
  const [folder, setFolder] = useState(DEFAULT_FOLDER);
  const [submitted, setSubmitted] = useState(false);
  const restore = useRestoreArchivedMail(api, tenantId, workerIp);
  const failure = useMailReadFailure();
  const count = mails.length;
  const into = target ? (names.data?.get(target) ?? target) : mailbox.name;
  const folderError = folder.trim() ? null : t('archiveBrowse:restoreFolderRequired');
  const others = [...(names.data ?? new Map<string, string>())].filter(([id]) => id !== mailbox.mailboxId);
  return (
    <ConfirmDialog
      open
      title={t('archiveBrowse:restoreTitle', { count, mailbox: mailbox.name })}
      confirmLabel={t('archiveBrowse:restore')}
      pending={restore.isPending}
      onConfirm={() => {
        setSubmitted(true);
        if (folderError) return;
        restore.mutate(
          {
            mailboxId: mailbox.mailboxId,
            messageIds: mails.map((m) => m.itemId),
            ...(target ? { targetMailbox: target } : {}),
            targetFolder: folder.trim(),
          },
          { onSuccess: (started) => onClose({ ...started, into, count }) },
        );
      }}
      onCancel={() => onClose(null)}
    >
      <Stack gap="3">
        <Text>
          {t('archiveBrowse:restoreWhat', { count, subject: mails[0]?.subject || t('archiveBrowse:noSubject') })}
        </Text>
        <MailboxTargetSelect
          id="restore-archived-target"
          label={t('archiveBrowse:restoreInto')}
          original={t('archiveBrowse:originalMailbox', { name: mailbox.name })}
          others={others}
          value={target}
          onChange={setTarget}
          otherNote={t('archiveBrowse:restoreOther')}
        />
        <TextField
          label={t('archiveBrowse:restoreFolder')}
          value={folder}
          maxLength={400}
          helperText={t('archiveBrowse:restoreFolderHelp')}
          onChange={(e) => setFolder(e.target.value)}
          error={folderError}
          showError={submitted}
        />
        {restore.error ? (
          <StatusAlert status="error">
            {isNotFound(restore.error) ? t('archiveBrowse:restoreNoJob') : failure(restore.error)}
          </StatusAlert>
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}
