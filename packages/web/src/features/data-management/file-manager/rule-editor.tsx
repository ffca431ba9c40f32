import { Field, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { CleanupRule } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { useValidator } from '../../../components/ui/validation';
import { COUNT_RULES, DATE_RULES, type RuleDraft } from './rule';

/** The clean-up rule: keep the newest versions, or remove those older than a date. */
export function RuleEditor({ draft, onChange }: { draft: RuleDraft; onChange: (next: RuleDraft) => void }) {
  const { t } = useTranslation();
  const check = useValidator();
  const error = draft.kind === 'keepNewest' ? check(draft.count, ...COUNT_RULES) : check(draft.date, ...DATE_RULES);
  return (
    <Stack gap="2" as="fieldset" borderWidth="1px" borderRadius="md" p="3">
      <Text as="legend" fontWeight="medium" fontSize="sm" px="1">
        {t('dataManagement:rule')}
      </Text>
      <HStack gap="3" wrap="wrap" align="flex-end">
        <Field.Root width="auto">
          <Field.Label fontSize="sm">{t('dataManagement:ruleKind')}</Field.Label>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field
              value={draft.kind}
              onChange={(e) => onChange({ ...draft, kind: e.target.value as CleanupRule['kind'] })}
            >
              <option value="keepNewest">{t('dataManagement:keepNewest')}</option>
              <option value="olderThan">{t('dataManagement:olderThan')}</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {draft.kind === 'keepNewest' ? (
          <Field.Root width="auto" invalid={!!error}>
            <Field.Label fontSize="sm">{t('dataManagement:keepCount')}</Field.Label>
            <Input
              size="sm"
              width="24"
              type="number"
              min={1}
              max={500}
              value={draft.count}
              onChange={(e) => onChange({ ...draft, count: e.target.value })}
            />
            <Field.ErrorText>{error}</Field.ErrorText>
          </Field.Root>
        ) : (
          <Field.Root width="auto" invalid={!!error}>
            <Field.Label fontSize="sm">{t('dataManagement:olderThanDate')}</Field.Label>
            <Input
              size="sm"
              type="date"
              value={draft.date}
              onChange={(e) => onChange({ ...draft, date: e.target.value })}
            />
            <Field.ErrorText>{error}</Field.ErrorText>
          </Field.Root>
        )}
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        {t('dataManagement:ruleNote')}
      </Text>
    </Stack>
  );
}
