import { chakra, Stack } from '@chakra-ui/react';

/** A labelled choice of the restore. */
export function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <Stack gap="1">
      <chakra.label htmlFor={id} fontSize="sm" fontWeight="medium">
        {label}
      </chakra.label>
      {children}
    </Stack>
  );
}
