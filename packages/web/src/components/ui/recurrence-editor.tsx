import { Checkbox, chakra, Fieldset, HStack, Input, NativeSelect, Stack, Text, Wrap } from '@chakra-ui/react';
import type { Recurrence, Retention } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { rules, useValidator } from './validation';

const RECURRENCE_KINDS = [
  'afterCreation',
  'daily',
  'weekly',
  'daysOfWeek',
  'monthly',
  'quarterly',
  'specificDate',
] as const satisfies readonly Recurrence['kind'][];

/** Sunday is 0, as the SDK counts; shown Monday first. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** A recurrence with the fields its kind uses and nothing else. */
export function normaliseRecurrence(r: Recurrence): Recurrence {
  const base: Recurrence = { kind: r.kind, ...(r.timeZone ? { timeZone: r.timeZone } : {}) };
  if (r.kind === 'afterCreation') return base;
  if (r.kind === 'specificDate') return { ...base, ...(r.date ? { date: r.date } : {}) };
  const hours = r.hours?.length ? { hours: [...r.hours].sort((a, b) => a - b) } : {};
  if (r.kind === 'daysOfWeek') return { ...base, ...hours, daysOfWeek: r.daysOfWeek ?? [] };
  if (r.kind === 'monthly' || r.kind === 'quarterly') return { ...base, ...hours, dayOfMonth: r.dayOfMonth ?? 1 };
  return { ...base, ...hours };
}

/**
 * What a schedule lacks, as the generic message: a days-of-week schedule at least one day, a
 * specific date its date and time (a well-formed one); null when it is complete.
 */
export function useRecurrenceError() {
  const check = useValidator();
  return (r: Recurrence): string | null =>
    r.kind === 'daysOfWeek'
      ? check(r.daysOfWeek ?? [], rules.minItems())
      : r.kind === 'specificDate'
        ? check(r.date ? toLocalInput(r.date) : '', rules.required(), rules.dateTime())
        : null;
}

/** Every recurrence option (daily, weekly, monthly, quarterly, a date, days of the week, after creation), with the hours to run at. */
export function RecurrenceEditor({
  value,
  onChange,
  error,
}: {
  value: Recurrence;
  onChange: (next: Recurrence) => void;
  error?: string;
}) {
  const { t, i18n } = useTranslation();
  const set = (change: Partial<Recurrence>) => onChange(normaliseRecurrence({ ...value, ...change }));
  const dayName = (d: number) =>
    new Date(Date.UTC(2024, 0, 7 + d)).toLocaleDateString(i18n.language, { weekday: 'short', timeZone: 'UTC' });
  const toggle = (list: number[] | undefined, item: number, on: boolean) =>
    on ? [...new Set([...(list ?? []), item])] : (list ?? []).filter((x) => x !== item);
  const local = value.date ? toLocalInput(value.date) : '';

  return (
    <Fieldset.Root invalid={!!error}>
      <Fieldset.Legend>{t('recurrence:legend')}</Fieldset.Legend>
      <Stack gap="3">
        <NativeSelect.Root maxW="sm">
          <NativeSelect.Field
            aria-label={t('recurrence:kind')}
            value={value.kind}
            onChange={(e) => set({ kind: e.target.value as Recurrence['kind'] })}
          >
            {RECURRENCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`recurrence:kinds.${k}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>

        {value.kind === 'specificDate' ? (
          <Input
            type="datetime-local"
            maxW="sm"
            aria-label={t('recurrence:date')}
            value={local}
            onChange={(e) => set({ date: e.target.value ? new Date(e.target.value).toISOString() : undefined })}
          />
        ) : null}

        {value.kind === 'daysOfWeek' ? (
          <Wrap gap="3" role="group" aria-label={t('recurrence:days')}>
            {WEEK.map((d) => (
              <Checkbox.Root
                key={d}
                size="sm"
                checked={value.daysOfWeek?.includes(d) ?? false}
                onCheckedChange={(e) => set({ daysOfWeek: toggle(value.daysOfWeek, d, e.checked === true) })}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{dayName(d)}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Wrap>
        ) : null}

        {value.kind === 'monthly' || value.kind === 'quarterly' ? (
          <HStack>
            <chakra.label htmlFor="recurrence-day" fontSize="sm">
              {t('recurrence:dayOfMonth')}
            </chakra.label>
            <Input
              id="recurrence-day"
              type="number"
              min={1}
              max={31}
              w="24"
              value={value.dayOfMonth ?? 1}
              onChange={(e) => set({ dayOfMonth: Math.min(31, Math.max(1, Number(e.target.value) || 1)) })}
            />
          </HStack>
        ) : null}

        {value.kind !== 'afterCreation' && value.kind !== 'specificDate' ? (
          <Stack gap="1">
            <Text fontSize="sm" id="recurrence-hours">
              {t('recurrence:hours')}
            </Text>
            <Wrap gap="2" role="group" aria-labelledby="recurrence-hours">
              {HOURS.map((h) => (
                <Checkbox.Root
                  key={h}
                  size="sm"
                  checked={value.hours?.includes(h) ?? false}
                  onCheckedChange={(e) => set({ hours: toggle(value.hours, h, e.checked === true) })}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontVariantNumeric="tabular-nums">{`${String(h).padStart(2, '0')}:00`}</Checkbox.Label>
                </Checkbox.Root>
              ))}
            </Wrap>
            <Text fontSize="xs" color="fg.muted">
              {t('recurrence:hoursHint')}
            </Text>
          </Stack>
        ) : null}
      </Stack>
      {error ? <Fieldset.ErrorText>{error}</Fieldset.ErrorText> : null}
    </Fieldset.Root>
  );
}

function toLocalInput(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A recurrence in words, for lists. */
export function useRecurrenceText() {
  const { t } = useTranslation();
  return (r: Recurrence | null) => {
    if (!r) return t('recurrence:none');
    const hours = r.hours?.length ? ` · ${r.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ')}` : '';
    return `${t(`recurrence:kinds.${r.kind}`)}${hours}`;
  };
}

/** Retention of x days, x months or 1 year. */
export function RetentionEditor({ value, onChange }: { value: Retention; onChange: (next: Retention) => void }) {
  const { t } = useTranslation();
  return (
    <Fieldset.Root>
      <Fieldset.Legend>{t('retention:legend')}</Fieldset.Legend>
      <HStack gap="2">
        {value.unit !== 'year' ? (
          <Input
            type="number"
            min={1}
            max={3650}
            w="24"
            aria-label={t('retention:value')}
            value={value.value}
            onChange={(e) => onChange({ ...value, value: Math.min(3650, Math.max(1, Number(e.target.value) || 1)) })}
          />
        ) : null}
        <NativeSelect.Root width="auto">
          <NativeSelect.Field
            aria-label={t('retention:unit')}
            value={value.unit}
            onChange={(e) => {
              const unit = e.target.value as Retention['unit'];
              onChange({ unit, value: unit === 'year' ? 1 : value.unit === 'year' ? 30 : value.value });
            }}
          >
            <option value="days">{t('retention:days')}</option>
            <option value="months">{t('retention:months')}</option>
            <option value="year">{t('retention:year')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
    </Fieldset.Root>
  );
}

export function useRetentionText() {
  const { t } = useTranslation();
  return (r: Retention | null) =>
    !r
      ? t('retention:none')
      : r.unit === 'year'
        ? t('retention:oneYear')
        : t(`retention:${r.unit}Count`, { count: r.value });
}
