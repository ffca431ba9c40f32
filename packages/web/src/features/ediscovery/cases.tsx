import { Badge, chakra, Stack, Text } from '@chakra-ui/react';
import type { EdiscoveryCase } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatDateTime } from '../../components/ui/format';
import { actionState, type RowActions } from '../../components/ui/row-actions';
import { type Column, TableView } from '../../components/ui/table-view';
import { showToast } from '../../components/ui/toaster';
import { failureText } from '../../errors/api-errors';
import { useServerAction } from '../../offline/online';
import { useApi, useTenant } from '../../shared/tenant';
import { useCaseExport } from './api/downloads';
import { useDeleteCase, useHoldCase, useReleaseCase } from './api/mutations';
import { casesQuery, rightsQuery } from './api/queries';
import { CaseDetails } from './case-details';
import { HoldConfirm } from './hold-confirm';

/** The custodians of a case by name, the first three and how many more. */
function CustodianNames({ found }: { found: EdiscoveryCase }) {
  const { t } = useTranslation();
  const names = found.custodians.map((c) => c.name);
  if (names.length === 0) {
    return (
      <Text fontSize="xs" color="fg.muted">
        {t('ediscovery:custodians.none')}
      </Text>
    );
  }
  const list = names.slice(0, 3).join(', ');
  return (
    <Text fontSize="xs" lineClamp={3} data-testid="custodian-names">
      {names.length > 3 ? t('backup:andMore', { list, count: names.length - 3 }) : list}
    </Text>
  );
}

/** A case's legal hold: since when, by whom and how many items it keeps; or that it has none. */
function HoldCell({ hold }: { hold: EdiscoveryCase['hold'] | undefined }) {
  const { t, i18n } = useTranslation();
  if (!hold) {
    return (
      <Text fontSize="xs" color="fg.muted">
        {t('ediscovery:hold.none')}
      </Text>
    );
  }
  return (
    <Stack gap="0.5" align="flex-start" data-testid="hold-badge">
      <Badge colorPalette="orange" variant="solid">
        {t('ediscovery:hold.column')}
      </Badge>
      <Text fontSize="xs">
        {t('ediscovery:hold.since', { date: formatDateTime(hold.heldAt, i18n.language), count: hold.items })}
      </Text>
      <Text fontSize="xs" color="fg.muted" hideBelow="md">
        {t('ediscovery:hold.by', { email: hold.heldBy })}
      </Text>
    </Stack>
  );
}

/**
 * The saved cases with their custodians: open one's search again, see its custodians and what its hold
 * keeps of each, export it, put it on legal hold or release it (eDiscovery managers only, a case that
 * names custodians), or remove it (not while it is held).
 */
export function Cases({ tenantId, onOpen }: { tenantId: string; onOpen: (c: EdiscoveryCase) => void }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { workerIp } = useTenant();
  const [removing, setRemoving] = useState<EdiscoveryCase | null>(null);
  const [releasing, setReleasing] = useState<EdiscoveryCase | null>(null);
  const [placing, setPlacing] = useState<EdiscoveryCase | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const blockedId = useId();
  const managerId = useId();
  const custodiansId = useId();
  const rights = useQuery(rightsQuery(api, tenantId));
  // Until the answer comes, the buttons wait disabled rather than promise what may be refused.
  const manager = rights.data?.ediscoveryManager === true;
  const hold = useHoldCase(api, tenantId, workerIp, (held) => {
    setPlacing(null);
    showToast('success', t('ediscovery:hold.held', { name: held.name, count: held.hold?.items ?? 0 }));
  });
  const release = useReleaseCase(api, tenantId, workerIp, (released) => {
    setReleasing(null);
    showToast('success', t('ediscovery:hold.released', { name: released.name }));
  });
  const serverAction = useServerAction();
  const cases = useQuery(casesQuery(api, tenantId));
  const exportCase = useCaseExport(api, tenantId);
  const remove = useDeleteCase(api, tenantId, () => setRemoving(null));
  if (!cases.data?.length) return null;
  const anyHeld = cases.data.some((c) => c.hold);
  const anyWithout = cases.data.some((c) => !c.hold && c.custodians.length === 0);
  const shown = cases.data.find((c) => c.caseId === viewing);
  /** Why Hold or Release cannot be used on this case, if so: the role first, then the custodians. */
  const holdBlocked = (c: EdiscoveryCase) =>
    !rights.isSuccess
      ? { disabled: true }
      : !manager
        ? { disabled: true, title: t('ediscovery:hold.needsManager'), 'aria-describedby': managerId }
        : !c.hold && c.custodians.length === 0
          ? { disabled: true, title: t('ediscovery:hold.needsCustodians'), 'aria-describedby': custodiansId }
          : {};
  const columns: Column<EdiscoveryCase>[] = [
    { key: 'name', header: t('ediscovery:caseName'), cell: (c) => c.name },
    {
      key: 'query',
      header: t('ediscovery:query'),
      cell: (c) => <chakra.code fontSize="xs">{c.search.query || '*'}</chakra.code>,
      hideBelow: 'md',
    },
    {
      key: 'custodians',
      header: t('ediscovery:custodians.title'),
      cell: (c) => <CustodianNames found={c} />,
      // On a phone the custodians stay in sight under the name.
      hideBelow: 'sm',
      stack: true,
    },
    { key: 'hits', header: t('ediscovery:hitsWhenSaved'), cell: (c) => c.hits, align: 'end', hideBelow: 'lg' },
    { key: 'hold', header: t('ediscovery:hold.column'), cell: (c) => <HoldCell hold={c.hold} /> },
    {
      key: 'saved',
      header: t('ediscovery:saved'),
      cell: (c) => (
        <>
          <Text fontSize="sm">{formatDateTime(c.createdAt, i18n.language)}</Text>
          <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
            {c.createdBy}
          </Text>
        </>
      ),
      hideBelow: 'md',
    },
  ];
  const asAction = (p: { disabled?: boolean; title?: string; 'aria-describedby'?: string }) =>
    actionState(serverAction, {
      disabled: !!p.disabled,
      ...(p.title ? { reason: p.title } : {}),
      ...(p['aria-describedby'] ? { describedBy: p['aria-describedby'] } : {}),
    });
  const rowActions: RowActions<EdiscoveryCase> = {
    header: t('backup:columns.actions'),
    rowLabel: (c) => c.name,
    actions: (c) => [
      { key: 'open', label: t('ediscovery:open'), onSelect: () => onOpen(c) },
      {
        key: 'details',
        label: t('ediscovery:details.open'),
        ariaLabel: t('ediscovery:details.label', { name: c.name }),
        onSelect: () => setViewing(c.caseId),
      },
      {
        key: 'export',
        label: t('ediscovery:export'),
        loading: exportCase.isPending && exportCase.variables?.caseId === c.caseId,
        onSelect: () => exportCase.mutate(c),
        ...actionState(serverAction),
      },
      c.hold
        ? {
            key: 'release',
            label: t('ediscovery:hold.releaseTrigger'),
            ariaLabel: t('ediscovery:hold.releaseLabel', { name: c.name }),
            palette: 'orange',
            onSelect: () => {
              release.reset();
              setReleasing(c);
            },
            ...asAction(holdBlocked(c)),
          }
        : {
            key: 'place',
            label: t('ediscovery:hold.place'),
            ariaLabel: t('ediscovery:hold.placeLabel', { name: c.name }),
            palette: 'orange',
            onSelect: () => {
              hold.reset();
              setPlacing(c);
            },
            ...asAction(holdBlocked(c)),
          },
      {
        key: 'remove',
        label: t('backup:removeTrigger'),
        palette: 'red',
        quiet: true,
        onSelect: () => setRemoving(c),
        ...asAction(
          c.hold ? { disabled: true, title: t('ediscovery:hold.removeBlocked'), 'aria-describedby': blockedId } : {},
        ),
      },
    ],
  };
  return (
    <Stack gap="2">
      <Text fontWeight="semibold">{t('ediscovery:cases')}</Text>
      <TableView
        label={t('ediscovery:cases')}
        columns={columns}
        rows={cases.data}
        rowKey={(c) => c.caseId}
        rowActions={rowActions}
        chooseColumns={false}
      />
      {rights.isError ? (
        <Text fontSize="xs" color="fg.error">
          {t('ediscovery:hold.rightsFailed')}
        </Text>
      ) : null}
      {rights.isSuccess && !manager ? (
        <Text fontSize="xs" color="fg.muted" id={managerId} data-testid="needs-manager">
          {t('ediscovery:hold.needsManager')}
        </Text>
      ) : null}
      {manager && anyWithout ? (
        <Text fontSize="xs" color="fg.muted" id={custodiansId}>
          {t('ediscovery:hold.needsCustodians')}
        </Text>
      ) : null}
      {anyHeld ? (
        <Text fontSize="xs" color="fg.muted" id={blockedId}>
          {t('ediscovery:hold.removeBlocked')}
        </Text>
      ) : null}
      <Text fontSize="xs" color="fg.muted">
        {t('ediscovery:hold.explain')}
      </Text>
      <HoldConfirm
        found={placing}
        action="place"
        pending={hold.isPending}
        failure={hold.error ? failureText(t, t('confirmations:hold.placeFailed'), hold.error) : null}
        onConfirm={(c) => hold.mutate(c)}
        onCancel={() => !hold.isPending && setPlacing(null)}
      />
      <HoldConfirm
        found={releasing}
        action="release"
        pending={release.isPending}
        failure={release.error ? failureText(t, t('confirmations:hold.releaseFailed'), release.error) : null}
        onConfirm={(c) => release.mutate(c)}
        onCancel={() => !release.isPending && setReleasing(null)}
      />
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
      {shown ? <CaseDetails found={shown} onClose={() => setViewing(null)} /> : null}
    </Stack>
  );
}
