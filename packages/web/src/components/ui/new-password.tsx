/**
 * A new password and its confirmation, as the reset page and the account's password change ask for
 * them: the password under the server's rules (and, when given, not the current one), the
 * confirmation equal to it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './form-field';
import { passwordAcceptable } from './password-rules';
import { rules, useValidator } from './validation';

export interface NewPassword {
  password: string;
  confirm: string;
  setPassword(value: string): void;
  setConfirm(value: string): void;
  passwordError: string | null;
  confirmError: string | null;
  /** Empties both fields. */
  clear(): void;
}

/** The two fields' values and errors; `current`: the password the new one must differ from. */
export function useNewPassword(current?: string): NewPassword {
  const { t } = useTranslation();
  const check = useValidator();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const passwordError =
    check(password, rules.required()) ??
    (!passwordAcceptable(password)
      ? t('auth:passwordRules')
      : current !== undefined && password === current
        ? t('accountSecurity:password.same')
        : null);
  const confirmError = check(confirm, rules.required()) ?? (confirm === password ? null : t('auth:passwordsDiffer'));
  return {
    password,
    confirm,
    setPassword,
    setConfirm,
    passwordError,
    confirmError,
    clear: () => {
      setPassword('');
      setConfirm('');
    },
  };
}

/** The new-password and confirmation fields, with their errors once the form was submitted. */
export function NewPasswordFields({
  state,
  passwordLabel,
  confirmLabel,
  passwordName,
  showErrors,
}: {
  state: NewPassword;
  passwordLabel: string;
  confirmLabel: string;
  passwordName: string;
  showErrors: boolean;
}) {
  return (
    <>
      <TextField
        label={passwordLabel}
        error={state.passwordError}
        showError={showErrors}
        type="password"
        name={passwordName}
        autoComplete="new-password"
        value={state.password}
        onChange={(e) => state.setPassword(e.target.value)}
      />
      <TextField
        label={confirmLabel}
        error={state.confirmError}
        showError={showErrors}
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        value={state.confirm}
        onChange={(e) => state.setConfirm(e.target.value)}
      />
    </>
  );
}
