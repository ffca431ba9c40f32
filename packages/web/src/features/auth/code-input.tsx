import { Field, Input } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export const CODE_PATTERN = /^\d{6}$/;

export function CodeInput({
  value,
  onChange,
  invalid,
}: {
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field.Root invalid={invalid} required>
      <Field.Label>{t('auth:code')}</Field.Label>
      <Input
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
        letterSpacing="0.3em"
        fontFamily="mono"
      />
      <Field.ErrorText>{t('validation:code')}</Field.ErrorText>
    </Field.Root>
  );
}
