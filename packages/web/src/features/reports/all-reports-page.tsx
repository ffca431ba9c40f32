import { Field, HStack, Input } from '@chakra-ui/react';
import type { JobType } from '@compliance-portal/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../components/ui/filter-select';
import { PageHeader } from '../../components/ui/page-header';
import { rules, useValidator } from '../../components/ui/validation';
import { Reports } from '../../shared/jobs/reports';
import { RequireTenant } from '../../shared/tenant';

/** The job types of each area of the portal. */
export const AREA_TYPES = {
  backup: ['backup', 'restore'],
  emailArchive: ['exchangeArchive', 'archiveDeletion'],
  teamsArchive: ['teamsArchive'],
  dataManagement: ['versionCleanup'],
} as const satisfies Record<string, readonly JobType[]>;
type Area = keyof typeof AREA_TYPES;
const ALL_TYPES = Object.values(AREA_TYPES).flat() as JobType[];

/** A date input's day as the instant it starts (UTC), or undefined when empty. */
const dayStart = (day: string, plusDays = 0) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? new Date(Date.parse(`${day}T00:00:00.000Z`) + plusDays * 86_400_000).toISOString()
    : undefined;

/** Every report of every area in one list, filtered by area, type and date; open, export, download. */
export function AllReportsPage() {
  const { t } = useTranslation();
  const [area, setArea] = useState<Area | ''>('');
  const [type, setType] = useState<JobType | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const types: readonly JobType[] = area ? AREA_TYPES[area] : ALL_TYPES;
  const check = useValidator();
  const fromError = check(from, rules.date());
  // "To" before "From" is refused on "To", and no list is asked for with it.
  const toError = check(to, rules.date(), rules.notBefore(from));
  const start = dayStart(from);
  // "To" includes its whole day.
  const end = dayStart(to, 1);
  const query = {
    ...(type ? { type } : area ? { types: [...AREA_TYPES[area]] } : {}),
    ...(start ? { from: start } : {}),
    ...(end ? { to: end } : {}),
  };
  const node = (
    <HStack gap="2" wrap="wrap" align="flex-end">
      <FilterSelect
        label={t('allReports:area')}
        value={area}
        all={t('allReports:allAreas')}
        options={(Object.keys(AREA_TYPES) as Area[]).map((a) => ({ value: a, label: t(`allReports:areas.${a}`) }))}
        onChange={(v) => {
          setArea(v);
          setType('');
        }}
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
      <PageHeader title={t('pages:reports')} description={t('allReports:intro')} />
      <RequireTenant>
        {(tenantId) => (
          <Reports
            tenantId={tenantId}
            area={{ types: [ALL_TYPES[0] as JobType, ...ALL_TYPES.slice(1)], label: t('pages:reports') }}
            filters={{ node, query, valid: !fromError && !toError }}
          />
        )}
      </RequireTenant>
    </>
  );
}
