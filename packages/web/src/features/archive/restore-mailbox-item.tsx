import { chakra, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { CONFLICT_POLICIES, type ConflictPolicy, type MailboxItemKind } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { isNotFound } from '../../errors/api-errors';
import { locationsQuery, sourceNamesQuery } from '../../shared/api/queries';
import { useApi } from '../../shared/tenant';
import { useRestoreMailboxItems } from './api/mutations';
import { useMailReadFailure } from './mail-read-failure';
import { MailboxTargetSelect } from './mailbox-target-select';

/** An archived item to restore: its kind, id, title and the archive job that kept it. */
export interface RestorableItem {
  kind: MailboxItemKind;
  itemId: string;
  title: string;
  jobId: string | null;
}

/** What the page says once the restore job is made. */
export interface ItemRestoreStarted {
  jobId: string;
  title: string;
  into: string;
}

/**
 * Asks before an archived calendar event, contact or task is put back: into which mailbox (the
 * original one or another) and what to do when it is there already. The restore is a restore job of
 * the archive job that kept the item, naming it as `event:{id}`, `contact:{id}` or `task:{id}`; a
 * refusal is said here, in words.
 */
export function RestoreMailboxItem({
  tenantId,
  mailbox,
  item,
  onClose,
}: {
  tenantId: string;
  mailbox: { mailboxId: string; name: string };
  item: RestorableItem;
  onClose: (started: ItemRestoreStarted | null) => void;
}) {
  const { t } = useTranslation();
  const api = useApi();
  const locations = useQuery(locationsQuery(api, tenantId));
  const names = useQuery(sourceNamesQuery(api, tenantId, locations.data?.[0]?.locationId ?? '', 'exchange'));
  const [target, setTarget] = useState('');
  const [policy, setPolicy] = useState<ConflictPolicy>('keepBoth');
  const restore = useRestoreMailboxItems(api, tenantId);
  const failure = useMailReadFailure();
  const into = target ? (names.data?.get(target) ?? target) : mailbox.name;
  const title = item.title || t('mailboxItems:noTitle');
  const others = [...(names.data ?? new Map<string, string>())].filter(([id]) => id !== mailbox.mailboxId);
  return (
    <ConfirmDialog
      open
      title={t('mailboxItems:restoreTitle', { count: 1, mailbox: mailbox.name })}
      confirmLabel={t('mailboxItems:restore')}
      pending={restore.isPending}
      onConfirm={() => {
        if (!item.jobId) return;
        restore.mutate(
          {
            name: t('mailboxItems:restoreJobName', { title, mailbox: into }),
            mailboxId: mailbox.mailboxId,
            sourceJobId: item.jobId,
            nodeIds: [`${item.kind}:${item.itemId}`],
            ...(target ? { targetMailbox: target } : {}),
            conflictPolicy: policy,
          },
          { onSuccess: (job) => onClose({ jobId: job.jobId, title, into }) },
        );
      }}
      onCancel={() => onClose(null)}
    >
      <Stack gap="3">
        <Text wordBreak="break-word">{t(`mailboxItems:restoreWhat.${item.kind}`, { title })}</Text>
        {item.kind === 'event' ? (
          <Text fontSize="sm" color="fg.warning">
            {t('mailboxItems:restoreAttendees')}
          </Text>
        ) : null}
        <MailboxTargetSelect
          id="restore-item-target"
          label={t('mailboxItems:restoreInto')}
          original={t('mailboxItems:originalMailbox', { name: mailbox.name })}
          others={others}
          value={target}
          onChange={setTarget}
          otherNote={`${t('mailboxItems:restoreOther')} ${t(`mailboxItems:restoreOtherWhere.${item.kind}`)}`}
        />
        <Stack gap="1">
          <chakra.label htmlFor="restore-item-policy" fontSize="sm" fontWeight="medium">
            {t('mailboxItems:conflict')}
          </chakra.label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="restore-item-policy"
              value={policy}
              onChange={(e) => setPolicy(e.target.value as ConflictPolicy)}
            >
              {CONFLICT_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {t(`mailboxItems:policies.${p}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        {!item.jobId ? <StatusAlert status="error">{t('mailboxItems:restoreNoJob')}</StatusAlert> : null}
        {restore.error ? (
          <StatusAlert status="error">
            {isNotFound(restore.error) ? t('mailboxItems:restoreNoJob') : failure(restore.error)}
          </StatusAlert>
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}
