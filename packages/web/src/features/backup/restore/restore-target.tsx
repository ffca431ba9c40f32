import { Button, HStack, NativeSelect, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { CONFLICT_POLICIES, type ConflictPolicy, RESTORE_TARGETS, type RestoreSpec } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';
import { useServerAction } from '../../../offline/online';
import { Field } from './field';
import { useSelectionText } from './selection-summary';
import type { RestoreState } from './use-restore-state';

/**
 * Where the chosen items go (their place, another account or site, or a download; Teams only
 * downloaded), what happens on a conflict, how many are chosen, and the button that asks to confirm.
 */
export function RestoreTarget({ restore }: { restore: RestoreState }) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  const what = useSelectionText();
  const { target, teams } = restore;
  return (
    <Stack gap="4" borderWidth="1px" borderRadius="md" p="4">
      <RadioGroup.Root value={target} onValueChange={(e) => restore.setTarget(e.value as RestoreSpec['target'])}>
        <Text fontWeight="medium" mb="2">
          {t('backup:restoreTo')}
        </Text>
        <Stack direction={{ base: 'column', md: 'row' }} gap="4">
          {RESTORE_TARGETS.map((x) => (
            <RadioGroup.Item key={x} value={x} disabled={teams && x !== 'download'}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t(`backup:targets.${x}`)}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
        {teams ? (
          <Text fontSize="sm" color="fg.muted" mt="2">
            {t('backup:teamsDownloadOnly')}
          </Text>
        ) : null}
      </RadioGroup.Root>
      {target === 'other' ? (
        <Field id="restore-target" label={t('backup:restoreTarget')}>
          <NativeSelect.Root maxW="md">
            <NativeSelect.Field
              id="restore-target"
              value={restore.targetId}
              onChange={(e) => restore.setTargetId(e.target.value)}
            >
              <option value="">{t('backup:chooseTarget')}</option>
              {[...(restore.names ?? new Map<string, string>())]
                .filter(([id]) => id !== restore.sourceId)
                .sort((a, b) => a[1].localeCompare(b[1]))
                .map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field>
      ) : null}
      {target !== 'download' ? (
        <RadioGroup.Root value={restore.policy} onValueChange={(e) => restore.setPolicy(e.value as ConflictPolicy)}>
          <Text fontWeight="medium" mb="2">
            {t('backup:conflictPolicy')}
          </Text>
          <Stack direction={{ base: 'column', md: 'row' }} gap="4">
            {CONFLICT_POLICIES.map((p) => (
              <RadioGroup.Item key={p} value={p}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t(`backup:policies.${p}`)}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
      ) : null}
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Text fontSize="sm" data-testid="restore-selection">
          {t('backup:selectedItems', { what: what(restore.selected) })}
        </Text>
        <Button
          colorPalette="blue"
          onClick={() => restore.setConfirming(true)}
          {...serverAction}
          disabled={serverAction.disabled || !restore.ready}
        >
          {t('backup:restoreTrigger')}
        </Button>
      </HStack>
    </Stack>
  );
}
