import { Stack, Text } from '@chakra-ui/react';
import type { RunAccount, RunItemFailure } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { FilterSelect } from '../../components/ui/filter-select';
import { formatBytes, formatNumber } from '../../components/ui/format';
import { useListState } from '../../components/ui/list-state';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { StatusBadge } from '../../components/ui/status-badge';
import { useApi } from '../tenant';
import { runAccountsQuery } from './api/queries';
import { codeText, failureLine, reasonText } from './run-status';

/** The failures of an account shown in its row; the rest are counted (the report has them all). */
const SHOWN_FAILURES = 3;

/** An account's failures: an older server's are its error texts, without a code. */
function failuresOf(account: RunAccount): RunItemFailure[] {
  if (account.failures) return account.failures;
  return account.errors.map((text) => {
    const at = text.indexOf(': ');
    return at > 0 ? { item: text.slice(0, at), reason: text.slice(at + 2) } : { item: '', reason: text };
  });
}

/** An account's failures as text, for exports: "item: reason (code)". */
export function failureTexts(account: RunAccount, t: TFunction): string[] {
  return failuresOf(account).map((f) => {
    return `${f.item ? `${f.item}: ` : ''}${failureLine(f, t, { said: true })}`;
  });
}

/** A failed item by name, its reason, and Microsoft's code beside it. */
function FailureLine({ failure }: { failure: RunItemFailure }) {
  const { t } = useTranslation();
  const code = codeText(failure, t);
  const { reason, said } = reasonText(failure, t);
  return (
    <Stack gap="0" fontSize="xs" data-testid="run-failure">
      <Text>
        {failure.item ? (
          <Text as="span" fontWeight="semibold">
            {failure.item}:{' '}
          </Text>
        ) : null}
        <Text as="span" colorPalette="red" color="colorPalette.fg">
          {reason}
        </Text>
      </Text>
      {said ? <Text color="fg.muted">{said}</Text> : null}
      {code ? (
        <Text color="fg.muted">
          {t('runs:accounts.code')}: <code>{code}</code>
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The accounts of a run with their items, failures and error messages; paged on the server. Its
 * paging stays in the table (it opens inside a drawer or a report), not in the address.
 */
export function RunAccountsTable({
  label,
  tenantId,
  from,
  reportId,
  poll,
  toolbar,
}: {
  label: string;
  tenantId: string;
  /** Where the run is shown: the monitor's drawer or its report. */
  from: 'monitoring' | 'reporting';
  reportId: string;
  /** Asked for again every few seconds while the run goes on. */
  poll?: boolean;
  toolbar?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const [state, setState] = useListState({ sort: 'displayName' });
  // Failed accounts alone, on the server (a report may have 100,000 accounts).
  const [only, setOnly] = useState<'' | 'failed'>('');
  const accounts = useQuery(
    runAccountsQuery(api, tenantId, from, reportId, state, poll, only === 'failed' ? 'failed' : undefined),
  );
  const columns: Column<RunAccount>[] = [
    { key: 'displayName', header: t('backup:columns.account'), cell: (a) => a.displayName, sortable: true },
    {
      key: 'status',
      header: t('backup:columns.status'),
      cell: (a) => <StatusBadge status={a.status} warnings={a.failedItems > 0} />,
      sortable: true,
    },
    {
      key: 'items',
      header: t('backup:columns.items'),
      cell: (a) => formatNumber(a.items, i18n.language),
      sortable: true,
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'failedItems',
      header: t('backup:columns.failures'),
      // An account that could not be read at all has no failed item to count: it says so instead of 0.
      cell: (a) =>
        a.status === 'failed' && a.failedItems === 0
          ? t('runs:accounts.wholeAccount')
          : formatNumber(a.failedItems, i18n.language),
      sortable: true,
      align: 'end',
    },
    {
      key: 'bytes',
      header: t('figures:bytesRead.short'),
      cell: (a) => formatBytes(a.bytes, i18n.language),
      sortable: true,
      align: 'end',
      hideBelow: 'sm',
    },
    {
      key: 'errors',
      header: t('backup:columns.errors'),
      cell: (a) => {
        const failures = failuresOf(a);
        if (failures.length === 0) return t('runs:accounts.none');
        return (
          <Stack gap="1" maxW="md" whiteSpace="normal">
            {failures.slice(0, SHOWN_FAILURES).map((f) => (
              <FailureLine key={`${f.item}\u0000${f.reason}\u0000${f.code ?? ''}`} failure={f} />
            ))}
            {failures.length > SHOWN_FAILURES ? (
              <Text fontSize="xs" color="fg.muted">
                {t('runs:accounts.more', { count: failures.length - SHOWN_FAILURES })}
              </Text>
            ) : null}
          </Stack>
        );
      },
    },
  ];
  return (
    <QueryDataTable
      query={accounts}
      label={label}
      columns={columns}
      rowKey={(a) => a.accountId}
      state={state}
      onStateChange={setState}
      emptyText={
        only === 'failed' ? t('runs:accounts.noneFailed') : poll ? t('runs:accounts.noneYet') : t('backup:noAccounts')
      }
      searchPlaceholder={t('backup:searchAccounts')}
      toolbar={
        <>
          <FilterSelect
            label={t('runs:accounts.show')}
            value={only}
            all={t('runs:accounts.all')}
            options={[{ value: 'failed' as const, label: t('runs:accounts.failed') }]}
            onChange={(v) => {
              setOnly(v);
              setState({ page: 1 });
            }}
          />
          {toolbar}
        </>
      }
    />
  );
}
