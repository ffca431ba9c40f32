/**
 * "Send the confirmation mail again" (apollo /resendConfirmationMail): for a known address a button,
 * otherwise a field for it first. The server answers alike for any address, and so does this.
 */
import { Alert, Button, Stack } from '@chakra-ui/react';
import { NetworkError } from '@compliance-portal/sdk';
import { useRouteContext } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { useResendConfirmation } from './api/mutations';

export function ResendConfirmation({ email: known }: { email?: string | undefined }) {
  const { t } = useTranslation();
  const { api } = useRouteContext({ from: '__root__' });
  const [email, setEmail] = useState(known ?? '');
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  const resend = useResendConfirmation(api);
  const check = useValidator();
  const error = known ? null : check(email, rules.required(), rules.email());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!error && !serverAction.disabled) resend.mutate(email.trim());
  };

  return (
    <form onSubmit={submit} noValidate data-testid="resend-confirmation">
      <Stack gap="3">
        {resend.isSuccess ? <StatusAlert status="success">{t('signUp:resend.sent')}</StatusAlert> : null}
        {resend.isError ? (
          <StatusAlert status="error">
            {resend.error instanceof NetworkError ? t('errors:network') : t('signUp:resend.failed')}
          </StatusAlert>
        ) : null}
        {known ? null : (
          <TextField
            label={t('auth:email')}
            error={error}
            showError={touched}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
        <Button type="submit" variant="outline" loading={resend.isPending} whiteSpace="normal" {...serverAction}>
          {t('signUp:resend.button')}
        </Button>
      </Stack>
    </form>
  );
}

/** A page's outcome: a title and what it means, announced politely (at once for an error). */
export function Notice({
  status,
  title,
  children,
  testId,
}: {
  status: 'success' | 'info' | 'warning' | 'error';
  title: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        {children ? <Alert.Description>{children}</Alert.Description> : null}
      </Alert.Content>
    </Alert.Root>
  );
}
