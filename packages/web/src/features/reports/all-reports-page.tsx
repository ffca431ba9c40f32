import { Field, HStack, Input } from '@chakra-ui/react';
import type { JobType } from '@compliance-portal/sdk';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../components/ui/filter-select';
import { PageHeader } from '../../components/ui/page-header';
import { rules, useValidator } from '../../components/ui/validation';
import { Reports } from '../../shared/jobs/reports';
import { RequireTenant } from '../../shared/tenant';
import { useUrlFilter } from '../../shared/url-state';
import { ALL_TYPES, AREAS, type Area, typeIn, typesFilter, typesOf } from './all-reports-search';

/** A date input's day as the instant it starts (UTC), or undefined when empty. */
const dayStart = (day: string, plusDays = 0) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? new Date(Date.parse(`${day}T00:00:00.000Z`) + plusDays * 86_400_000).toISOString()
    : undefined;

const route = getRouteApi('/_app/_worker/reports');

/** Every report of every area in one list, filtered by area, type and date; open, export, download. */
export function AllReportsPage() {
  const { t } = useTranslation();
  const navigate = route.useNavigate();
  // The area, type and status (and the list's paging) are in the address; the dates are not.
  const [area] = useUrlFilter<Area | ''>(route.id, 'area', '');
  const [chosenType, setType] = useUrlFilter<string>(route.id, 'type', '');
  const type = typeIn(area, chosenType);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const types = typesOf(area);
  // Another area: its types, none chosen, and the first page.
  const setArea = (next: Area | '') =>
    void navigate({
      replace: true,
      search: (previous) => {
        const search = { ...previous };
        delete search.type;
        delete search.page;
        if (next) search.area = next;
        else delete search.area;
        return search;
      },
    });
  const check = useValidator();
  const fromError = check(from, rules.date());
  // "To" before "From" is refused on "To", and no list is asked for with it.
  const toError = check(to, rules.date(), rules.notBefore(from));
  const start = dayStart(from);
  // "To" includes its whole day.
  const end = dayStart(to, 1);
  const query = {
    ...typesFilter(area, type),
    ...(start ? { from: start } : {}),
    ...(end ? { to: end } : {}),
  };
  const node = (
    <HStack gap="2" wrap="wrap" align="flex-end">
      <FilterSelect
        label={t('allReports:area')}
        value={area}
        all={t('allReports:allAreas')}
        options={AREAS.map((a) => ({ value: a, label: t(`allReports:areas.${a}`) }))}
        onChange={setArea}
      />
      <FilterSelect
        label={t('backup:columns.type')}
        value={type}
        all={t('allReports:allTypes')}
        options={types.map((v) => ({ value: v, label: t(`backup:types.${v}`) }))}
        onChange={setType}
      />
      <Field.Root width="auto" invalid={!!fromError}>
        <Field.Label fontSize="xs">{t('allReports:from')}</Field.Label>
        <Input size="sm" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        <Field.ErrorText>{fromError}</Field.ErrorText>
      </Field.Root>
      <Field.Root width="auto" invalid={!!toError}>
        <Field.Label fontSize="xs">{t('allReports:to')}</Field.Label>
        <Input size="sm" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        <Field.ErrorText>{toError}</Field.ErrorText>
      </Field.Root>
    </HStack>
  );
  return (
    <>
      <PageHeader title={t('pages:reports')} description={t('allReports:intro')} help="reports.a2" />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            from={route.id}
            tenantId={tenantId}
            area={{ types: [ALL_TYPES[0] as JobType, ...ALL_TYPES.slice(1)], label: t('pages:reports') }}
            filters={{ node, query, valid: !fromError && !toError }}
          />
        )}
      </RequireTenant>
    </>
  );
}
