/**
 * What a sensitive change of the account asks again: the current password and, while two-factor
 * sign-in is on, a current code of the authenticator app or (where allowed) a recovery code.
 */
import { Button, Field, Input, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { WRAPPING_LABEL } from './wrapping';

const CODE_PATTERN = /^\d{6}$/;
const RECOVERY_PATTERN = /^[2-9A-Za-z]{5}-?[2-9A-Za-z]{5}$/;

/** A recovery code as the server keeps it: upper case, with its dash. */
function normaliseRecoveryCode(value: string): string {
  const clean = value.trim().toUpperCase().replace('-', '');
  return `${clean.slice(0, 5)}-${clean.slice(5)}`;
}

export interface ReauthenticationBody {
  oldPassword: string;
  twoFactorCode?: string;
  twoFactorRecoveryCode?: string;
}

export function useReauthentication(options: { secondFactor: boolean; allowRecoveryCode: boolean }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const byRecoveryCode = options.allowRecoveryCode && mode === 'recovery';
  const check = useValidator();
  const errors = {
    password: check(password, rules.required()),
    secondFactor: !options.secondFactor
      ? null
      : byRecoveryCode
        ? RECOVERY_PATTERN.test(recoveryCode.trim())
          ? null
          : t('validation:recoveryCode')
        : CODE_PATTERN.test(code)
          ? null
          : t('validation:code'),
  };
  return {
    ...options,
    password,
    setPassword,
    code,
    setCode,
    recoveryCode,
    setRecoveryCode,
    byRecoveryCode,
    toggleMode: () => setMode(mode === 'code' ? 'recovery' : 'code'),
    errors,
    valid: !errors.password && !errors.secondFactor,
    body(): ReauthenticationBody {
      if (!options.secondFactor) return { oldPassword: password };
      return byRecoveryCode
        ? { oldPassword: password, twoFactorRecoveryCode: normaliseRecoveryCode(recoveryCode) }
        : { oldPassword: password, twoFactorCode: code };
    },
    reset() {
      setPassword('');
      setCode('');
      setRecoveryCode('');
      setMode('code');
    },
  };
}

export type Reauthentication = ReturnType<typeof useReauthentication>;

/** The current password and the second factor, with the switch to a recovery code where allowed. */
export function ReauthenticationFields({
  reauth,
  showErrors,
  autoFocus = false,
}: {
  reauth: Reauthentication;
  showErrors: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="3">
      <TextField
        label={t('accountSecurity:currentPassword')}
        error={reauth.errors.password}
        showError={showErrors}
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        // The field that opens with the form takes the focus: the keyboard goes on where the button was.
        autoFocus={autoFocus}
        value={reauth.password}
        onChange={(e) => reauth.setPassword(e.target.value)}
      />
      {reauth.secondFactor ? (
        reauth.byRecoveryCode ? (
          <Field.Root invalid={showErrors && !!reauth.errors.secondFactor} required>
            <Field.Label>{t('accountSecurity:recoveryCode')}</Field.Label>
            <Input
              name="recoveryCode"
              autoComplete="off"
              fontFamily="mono"
              value={reauth.recoveryCode}
              onChange={(e) => reauth.setRecoveryCode(e.target.value)}
            />
            <Field.ErrorText>{reauth.errors.secondFactor}</Field.ErrorText>
          </Field.Root>
        ) : (
          <Field.Root invalid={showErrors && !!reauth.errors.secondFactor} required>
            <Field.Label>{t('accountSecurity:code')}</Field.Label>
            <Input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              fontFamily="mono"
              letterSpacing="0.3em"
              value={reauth.code}
              onChange={(e) => reauth.setCode(e.target.value.replace(/\D/g, ''))}
            />
            <Field.ErrorText>{reauth.errors.secondFactor}</Field.ErrorText>
          </Field.Root>
        )
      ) : null}
      {reauth.secondFactor && reauth.allowRecoveryCode ? (
        <Button
          {...WRAPPING_LABEL}
          variant="plain"
          size="sm"
          alignSelf="flex-start"
          px="0"
          color="brand.600"
          onClick={reauth.toggleMode}
        >
          {reauth.byRecoveryCode ? t('accountSecurity:useCode') : t('accountSecurity:useRecoveryCode')}
        </Button>
      ) : null}
    </Stack>
  );
}
