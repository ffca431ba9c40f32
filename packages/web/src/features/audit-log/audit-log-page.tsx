/**
 * /configuration/audit-log: the organisation's audit log, newest first, filtered by who (name or
 * address), what (an action or a whole area), outcome and a range of days, paged and exported; above
 * it, whether the organisation's entries verify against the hash chain. Reached from Configuration
 * and from the account menu. Filters and page are in the address.
 */
import { Badge, Button, Card, Field, HStack, Input, Link, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { AuditChainReport, AuditEntry } from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { ExportButtons, type ExportColumn } from '../../components/ui/export-button';
import { FilterSelect } from '../../components/ui/filter-select';
import { StatusAlert } from '../../components/ui/form-field';
import { formatDateTime, formatNumber } from '../../components/ui/format';
import { type ListState, useDebounced } from '../../components/ui/list-state';
import { PageHeader } from '../../components/ui/page-header';
import { QueryDataTable } from '../../components/ui/query-data-table';
import { rules, useValidator } from '../../components/ui/validation';
import { useWorker } from '../../session/use-worker';
import { useApi } from '../../shared/tenant';
import { useClearUrlFilters, useUrlFilter, useUrlListState } from '../../shared/url-state';
import { AUDIT_AREAS, actionText, reasonText } from './actions';
import {
  type AuditFilters,
  auditChainQuery,
  auditEntriesQuery,
  auditFiltersOf,
  auditListQuery,
  fetchAuditPage,
} from './api/queries';

/** The list's defaults, which the route's loader reads with too. */
export const AUDIT_LIST: Partial<ListState> = { pageSize: 25 };

const OUTCOMES = ['success', 'failure'] as const;
/** The filters the address keeps, as the route names them. */
const FILTERS = ['actor', 'action', 'outcome', 'from', 'to'] as const;
/** The route whose address keeps the list and its filters. */
const ROUTE = '/_app/_worker/configuration_/audit-log';

/** Why an entry failed, as the server recorded it, where it did. */
function reasonOf(entry: AuditEntry): string | null {
  const { reason, detail, code } = entry.details;
  const why = [reason, detail, code].find((v) => typeof v === 'string' && v !== '');
  return typeof why === 'string' ? why : null;
}

function ChainStatus({ organisationId }: { organisationId: string }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const chain = useQuery(auditChainQuery(api, organisationId));
  const report: AuditChainReport | undefined = chain.data;
  return (
    <Card.Root as="section" aria-labelledby="audit-chain-title" data-testid="audit-chain">
      <Card.Body gap="2">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <Text as="h2" id="audit-chain-title" fontWeight="semibold">
            {t('auditLog:chain.title')}
          </Text>
          <Button size="xs" variant="outline" loading={chain.isFetching} onClick={() => void chain.refetch()}>
            {t('auditLog:chain.again')}
          </Button>
        </HStack>
        <div aria-live="polite">
          {chain.isPending ? (
            <Stack gap="2">
              <Text fontSize="sm" color="fg.muted">
                {t('auditLog:chain.checking')}
              </Text>
              <Skeleton height="4" />
            </Stack>
          ) : chain.isError ? (
            <StatusAlert status="error">{t('auditLog:chain.failed')}</StatusAlert>
          ) : report?.verified ? (
            <Stack gap="1" data-testid="audit-chain-verified">
              <StatusAlert status="success">
                {report.entries === 0
                  ? t('auditLog:chain.empty')
                  : t('auditLog:chain.verified', { count: report.entries })}
              </StatusAlert>
              <Text fontSize="sm" color="fg.muted">
                {t('auditLog:chain.checkedAt', {
                  at: formatDateTime(report.checkedAt, i18n.language),
                  ms: formatNumber(report.durationMs, i18n.language),
                })}
              </Text>
            </Stack>
          ) : report ? (
            <Stack gap="1" data-testid="audit-chain-broken">
              <StatusAlert status="error">
                {t('auditLog:chain.broken', {
                  seq: formatNumber(report.brokenAt ?? 0, i18n.language),
                  problem: t(`auditLog:chain.problems.${report.problem ?? 'altered'}`),
                })}
              </StatusAlert>
              <Text fontSize="sm" color="fg.muted">
                {t('auditLog:chain.brokenBefore', { count: report.entries })}{' '}
                {t('auditLog:chain.checkedAt', {
                  at: formatDateTime(report.checkedAt, i18n.language),
                  ms: formatNumber(report.durationMs, i18n.language),
                })}
              </Text>
            </Stack>
          ) : null}
        </div>
      </Card.Body>
    </Card.Root>
  );
}

function ActionSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect.Root size="sm">
      <NativeSelect.Field value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('auditLog:allActions')}</option>
        {AUDIT_AREAS.map(({ area, prefix, actions }) => (
          <optgroup key={area} label={t(`auditLog:areas.${area}`)}>
            {prefix ? (
              <option value={prefix}>{t('auditLog:allOfArea', { area: t(`auditLog:areas.${area}`) })}</option>
            ) : null}
            {actions.map((action) => (
              <option key={action} value={action}>
                {actionText(t, action)}
              </option>
            ))}
          </optgroup>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const api = useApi();
  const worker = useWorker();
  const organisationId = worker?.clientId ?? '';
  const [state, setState] = useUrlListState(ROUTE, AUDIT_LIST);
  const [actor, setActor] = useUrlFilter<string>(ROUTE, 'actor', '');
  const [action, setAction] = useUrlFilter<string>(ROUTE, 'action', '');
  const [outcome, setOutcome] = useUrlFilter<AuditFilters['outcome']>(ROUTE, 'outcome', '');
  const [from, setFrom] = useUrlFilter<string>(ROUTE, 'from', '');
  const [to, setTo] = useUrlFilter<string>(ROUTE, 'to', '');
  // The name is typed into a field of its own and reaches the address (and the server) once it settles.
  const [actorText, setActorText] = useState(actor);
  const settledActor = useDebounced(actorText);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled text changes the filter.
  useEffect(() => {
    if (settledActor !== actor) setActor(settledActor);
  }, [settledActor]);
  const clearFilters = useClearUrlFilters(ROUTE, FILTERS);
  const check = useValidator();
  const fromError = check(from, rules.date());
  const toError = check(to, rules.date(), rules.notBefore(from));
  const filters = auditFiltersOf({ actor, action, outcome, from, to });
  const entries = useQuery({
    ...auditEntriesQuery(api, organisationId, state, filters),
    enabled: organisationId !== '',
  });

  const who = (e: AuditEntry) => e.actorName ?? e.actorEmail ?? t('auditLog:system');
  const onWhat = (e: AuditEntry) => e.targetName ?? e.target ?? '';
  const columns: Column<AuditEntry>[] = [
    {
      key: 'at',
      header: t('auditLog:columns.at'),
      cell: (e) => (
        <Text whiteSpace="nowrap" fontSize="sm">
          <time dateTime={e.at}>{formatDateTime(e.at, lang)}</time>
        </Text>
      ),
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'actor',
      header: t('auditLog:columns.actor'),
      cell: (e) => (
        <Stack gap="0">
          <Text fontWeight="medium">{who(e)}</Text>
          {e.actorName && e.actorEmail ? (
            <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
              {e.actorEmail}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'action',
      header: t('auditLog:columns.action'),
      cell: (e) => (
        <Stack gap="1" align="flex-start">
          <Text>{actionText(t, e.action)}</Text>
          {e.outcome === 'failure' ? (
            <Badge colorPalette="red" variant="subtle">
              {t('auditLog:outcomes.failure')}
              {reasonOf(e) ? ` · ${reasonText(t, reasonOf(e) ?? '')}` : ''}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'target',
      header: t('auditLog:columns.target'),
      cell: (e) => (
        <Text wordBreak="break-word" title={e.target ?? undefined}>
          {onWhat(e)}
        </Text>
      ),
      hideBelow: 'md',
      stack: true,
    },
    { key: 'ip', header: t('auditLog:columns.ip'), cell: (e) => e.ip ?? '', hideBelow: 'lg' },
    {
      key: 'seq',
      header: t('auditLog:columns.seq'),
      cell: (e) => formatNumber(e.seq, lang),
      align: 'end',
      hideBelow: 'lg',
    },
  ];
  const exportColumns: ExportColumn<AuditEntry>[] = [
    { header: t('auditLog:columns.seq'), value: (e) => e.seq },
    { header: t('auditLog:columns.at'), value: (e) => e.at },
    { header: t('auditLog:exportColumns.actorName'), value: (e) => e.actorName ?? '' },
    { header: t('auditLog:exportColumns.actorEmail'), value: (e) => e.actorEmail ?? '' },
    { header: t('auditLog:exportColumns.action'), value: (e) => actionText(t, e.action) },
    { header: t('auditLog:exportColumns.actionCode'), value: (e) => e.action },
    { header: t('auditLog:exportColumns.target'), value: (e) => e.targetName ?? '' },
    { header: t('auditLog:exportColumns.targetId'), value: (e) => e.target ?? '' },
    { header: t('auditLog:columns.outcome'), value: (e) => t(`auditLog:outcomes.${e.outcome}`) },
    { header: t('auditLog:columns.ip'), value: (e) => e.ip ?? '' },
    { header: t('auditLog:columns.details'), value: (e) => JSON.stringify(e.details) },
    { header: t('auditLog:exportColumns.previousHash'), value: (e) => e.prevHash },
    { header: t('auditLog:exportColumns.hash'), value: (e) => e.hash },
  ];
  const filtered = Boolean(actor || action || outcome || from || to);

  return (
    <>
      <PageHeader
        title={t('auditLog:title')}
        help="configuration.a5"
        description={t('auditLog:intro')}
        actions={
          <Link asChild fontSize="sm" color="brand.600">
            <RouterLink to="/configuration">{t('auditLog:back')}</RouterLink>
          </Link>
        }
      />
      <Stack gap="5">
        {organisationId ? <ChainStatus organisationId={organisationId} /> : null}
        <Card.Root as="section" aria-label={t('auditLog:filters')}>
          <Card.Body>
            <Stack direction={{ base: 'column', md: 'row' }} gap="3" align={{ md: 'flex-end' }} wrap="wrap">
              <Field.Root flex={{ md: '2' }} minW={{ md: '48' }}>
                <Field.Label>{t('auditLog:actor')}</Field.Label>
                <Input
                  size="sm"
                  type="search"
                  value={actorText}
                  maxLength={200}
                  onChange={(e) => setActorText(e.target.value)}
                />
              </Field.Root>
              <Field.Root flex={{ md: '2' }} minW={{ md: '48' }}>
                <Field.Label>{t('auditLog:actionFilter')}</Field.Label>
                <ActionSelect value={action} onChange={setAction} />
              </Field.Root>
              <Field.Root flex={{ md: '1' }} minW={{ md: '36' }} invalid={!!fromError}>
                <Field.Label>{t('auditLog:from')}</Field.Label>
                <Input size="sm" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
                <Field.ErrorText>{fromError}</Field.ErrorText>
              </Field.Root>
              <Field.Root flex={{ md: '1' }} minW={{ md: '36' }} invalid={!!toError}>
                <Field.Label>{t('auditLog:to')}</Field.Label>
                <Input size="sm" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
                <Field.ErrorText>{toError}</Field.ErrorText>
              </Field.Root>
              {filtered ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setActorText('');
                    clearFilters();
                  }}
                >
                  {t('auditLog:clear')}
                </Button>
              ) : null}
            </Stack>
          </Card.Body>
        </Card.Root>
        <QueryDataTable
          query={entries}
          label={t('auditLog:table')}
          columns={columns}
          rowKey={(e) => String(e.seq)}
          state={state}
          onStateChange={setState}
          emptyText={t('auditLog:empty')}
          errorText={t('auditLog:failed')}
          toolbar={
            <>
              <FilterSelect
                label={t('auditLog:columns.outcome')}
                value={outcome}
                all={t('auditLog:allOutcomes')}
                options={OUTCOMES.map((o) => ({ value: o, label: t(`auditLog:outcomes.${o}`) }))}
                onChange={setOutcome}
              />
              <ExportButtons
                title={t('auditLog:title')}
                columns={exportColumns}
                disabled={!organisationId}
                fetchPage={({ page, pageSize }) =>
                  fetchAuditPage(api, auditListQuery(organisationId, { ...state, page, pageSize }, filters))
                }
              />
            </>
          }
        />
      </Stack>
    </>
  );
}
