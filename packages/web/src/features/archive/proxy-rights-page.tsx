import { Badge, Button, chakra, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { ApiError, type ProxyPrincipal, type ProxyRight } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime } from '../../components/ui/format';
import { PageHeader } from '../../components/ui/page-header';
import { showToast } from '../../components/ui/toaster';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { useApi, useTenant } from '../../shared/tenant';
import { useGrantProxyRights, useRevokeProxyRight } from './api/mutations';
import { proxyAccountsQuery, proxyRightsQuery } from './api/queries';

/** Why a holder cannot be added now, or null. */
function refusal(
  principal: ProxyPrincipal,
  mailboxId: string,
  selected: readonly string[],
  holders: readonly ProxyRight[],
): 'self' | 'selected' | 'holds' | null {
  if (principal.principalId === mailboxId) return 'self';
  if (selected.includes(principal.principalId)) return 'selected';
  if (holders.some((h) => h.principal.principalId === principal.principalId)) return 'holds';
  return null;
}

function ProxyRights({ workerIp }: { workerIp: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [mailboxId, setMailboxId] = useState('');
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ProxyRight | null>(null);
  const serverAction = useServerAction();
  const principals = useQuery(proxyAccountsQuery(api, workerIp));
  const rights = useQuery(proxyRightsQuery(api, workerIp, mailboxId));
  const mailboxes = (principals.data ?? []).filter((p) => p.kind === 'account' && !p.principalId.startsWith('user:'));
  const holders = rights.data ?? [];
  const grant = useGrantProxyRights(api, workerIp, {
    onSuccess: (granted) => {
      setSelected([]);
      setMessage(null);
      showToast('success', t('proxy:granted', { count: granted.length }));
    },
    onError: (error) => {
      // A right granted meanwhile elsewhere: said in the page's words, not only as a status.
      if (error instanceof ApiError && error.status === 409) setMessage(t('proxy:refused.holds'));
    },
  });
  const revoke = useRevokeProxyRight(api, workerIp, () => {
    setRevoking(null);
    showToast('success', t('proxy:revoked'));
  });
  const add = (p: ProxyPrincipal) => {
    const why = refusal(p, mailboxId, selected, holders);
    if (why) {
      setMessage(t(`proxy:refused.${why}`, { name: p.displayName }));
      return;
    }
    setMessage(null);
    setSelected([...selected, p.principalId]);
  };
  const needle = filter.trim().toLowerCase();
  const candidates = (principals.data ?? []).filter(
    (p) => !needle || `${p.displayName} ${p.email}`.toLowerCase().includes(needle),
  );
  const nameOf = (id: string) => principals.data?.find((p) => p.principalId === id)?.displayName ?? id;

  return (
    <Stack gap="5">
      <Stack gap="1" maxW="md">
        <chakra.label htmlFor="proxy-mailbox" fontWeight="medium" fontSize="sm">
          {t('proxy:mailbox')}
        </chakra.label>
        <NativeSelect.Root>
          <NativeSelect.Field
            id="proxy-mailbox"
            value={mailboxId}
            onChange={(e) => {
              setMailboxId(e.target.value);
              setSelected([]);
              setMessage(null);
            }}
          >
            <option value="">{principals.isLoading ? t('common:loading') : t('proxy:chooseMailbox')}</option>
            {mailboxes.map((m) => (
              <option key={m.principalId} value={m.principalId}>
                {m.displayName} ({m.email})
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      {principals.isError ? (
        <M365FailureAlert
          title={t('m365:proxyAccounts')}
          error={principals.error}
          onRetry={() => void principals.refetch()}
        />
      ) : null}

      {mailboxId ? (
        <>
          <Stack gap="2">
            <Text fontWeight="semibold">{t('proxy:holders')}</Text>
            {holders.length === 0 ? (
              <Text color="fg.muted" data-testid="no-holders">
                {t('proxy:noHolders')}
              </Text>
            ) : (
              <Table.ScrollArea
                borderWidth="1px"
                borderRadius="md"
                tabIndex={0}
                role="region"
                aria-label={t('proxy:holders')}
              >
                <Table.Root size="sm" aria-label={t('proxy:holders')}>
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>{t('proxy:holder')}</Table.ColumnHeader>
                      <Table.ColumnHeader hideBelow="md">{t('proxy:grantedBy')}</Table.ColumnHeader>
                      <Table.ColumnHeader>{t('backup:columns.actions')}</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {holders.map((h) => (
                      <Table.Row key={h.rightId}>
                        <Table.Cell>
                          {h.principal.displayName} <Badge size="sm">{t(`proxy:kinds.${h.principal.kind}`)}</Badge>
                        </Table.Cell>
                        <Table.Cell hideBelow="md">
                          {h.grantedBy} · {formatDateTime(h.granted, i18n.language)}
                        </Table.Cell>
                        <Table.Cell>
                          <Button
                            size="xs"
                            variant="ghost"
                            colorPalette="red"
                            onClick={() => setRevoking(h)}
                            {...serverAction}
                          >
                            {t('proxy:revokeTrigger')}
                          </Button>
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
          </Stack>

          <Stack gap="2" borderWidth="1px" borderRadius="md" p="4">
            <Text fontWeight="semibold">{t('proxy:grantTitle')}</Text>
            <Input
              type="search"
              maxW="md"
              aria-label={t('proxy:searchHolders')}
              placeholder={t('proxy:searchHolders')}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <Stack gap="1" maxH="64" overflowY="auto" role="list" aria-label={t('proxy:candidates')} tabIndex={0}>
              {candidates.map((p) => (
                <HStack key={p.principalId} role="listitem" justify="space-between" gap="2">
                  <Text fontSize="sm" truncate>
                    {p.displayName} <chakra.span color="fg.muted">{p.email}</chakra.span>{' '}
                    <Badge size="sm">{t(`proxy:kinds.${p.kind}`)}</Badge>
                  </Text>
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => add(p)}
                    aria-label={t('proxy:addName', { name: p.displayName })}
                  >
                    {t('proxy:add')}
                  </Button>
                </HStack>
              ))}
            </Stack>
            {message ? <StatusAlert status="error">{message}</StatusAlert> : null}
            <HStack justify="space-between" wrap="wrap" gap="2">
              <Text fontSize="sm" data-testid="proxy-selected">
                {selected.length ? selected.map(nameOf).join(', ') : t('proxy:noneSelected')}
              </Text>
              <Button
                colorPalette="blue"
                loading={grant.isPending}
                onClick={() => grant.mutate({ mailboxId, principalIds: selected })}
                {...serverAction}
                disabled={serverAction.disabled || selected.length === 0}
              >
                {t('proxy:grant')}
              </Button>
            </HStack>
          </Stack>
        </>
      ) : null}

      <ConfirmDialog
        open={!!revoking}
        title={t('proxy:revokeTitle', { name: revoking?.principal.displayName ?? '' })}
        confirmLabel={t('proxy:revoke')}
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        {t('proxy:revokeText', { name: revoking?.principal.displayName ?? '', mailbox: revoking?.mailboxName ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}

/** Proxy rights: who may read which mailbox's archive (accounts, the portal's people, groups). */
export function ProxyRightsPage() {
  const { t } = useTranslation();
  const { workerIp } = useTenant();
  return (
    <>
      <PageHeader title={t('pages:proxyRights')} description={t('proxy:description')} help="emailArchive.a2" />
      <ProxyRights workerIp={workerIp} />
    </>
  );
}
