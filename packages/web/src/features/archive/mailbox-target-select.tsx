import { chakra, NativeSelect, Stack, Text } from '@chakra-ui/react';

/**
 * Which mailbox a restore from the archive goes into: the original one (the empty value) or another of
 * the tenant; below it, once another is chosen, what that means.
 */
export function MailboxTargetSelect({
  id,
  label,
  original,
  others,
  value,
  onChange,
  otherNote,
}: {
  id: string;
  label: string;
  original: string;
  others: readonly (readonly [string, string])[];
  value: string;
  onChange: (mailboxId: string) => void;
  otherNote: string;
}) {
  return (
    <Stack gap="1">
      <chakra.label htmlFor={id} fontSize="sm" fontWeight="medium">
        {label}
      </chakra.label>
      <NativeSelect.Root>
        <NativeSelect.Field id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{original}</option>
          {others.map(([mailboxId, name]) => (
            <option key={mailboxId} value={mailboxId}>
              {name}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {value ? (
        <Text fontSize="sm" color="fg.muted">
          {otherNote}
        </Text>
      ) : null}
    </Stack>
  );
}
