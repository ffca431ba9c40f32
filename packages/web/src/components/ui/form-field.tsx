import { Alert, Field, Input, type InputProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A text field (required unless `required={false}`) with its label, an optional help text under it
 * (the input is described by it) and, once the form was submitted, its error.
 */
export function TextField({
  label,
  error,
  showError,
  helperText,
  ...input
}: { label: string; error: string | null; showError: boolean; helperText?: ReactNode } & InputProps) {
  return (
    <Field.Root invalid={showError && !!error} required>
      <Field.Label>{label}</Field.Label>
      <Input {...input} />
      {helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The outcome of a form: announced politely on success, at once on failure. */
export function StatusAlert({ status, children }: { status: 'success' | 'error'; children: ReactNode }) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Title>{children}</Alert.Title>
    </Alert.Root>
  );
}
