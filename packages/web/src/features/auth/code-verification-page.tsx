import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { CODE_PATTERN, CodeInput } from './code-input';

const RECOVERY_PATTERN = /^[2-9A-Za-z]{5}-?[2-9A-Za-z]{5}$/;

export function CodeVerificationPage() {
  const { t } = useTranslation();
  const { context, matches, send } = useSession();
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();
  const busy = matches({ twoFactorVerification: 'verifying' });
  const recoveryValid = RECOVERY_PATTERN.test(recovery.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (serverAction.disabled) return;
    if (mode === 'code' && CODE_PATTERN.test(code)) send({ type: 'session.verify', code });
    if (mode === 'recovery' && recoveryValid) {
      const clean = recovery.trim().toUpperCase().replace('-', '');
      send({ type: 'session.verifyRecovery', recoveryCode: `${clean.slice(0, 5)}-${clean.slice(5)}` });
    }
  };

  return (
    <PublicLayout title={t('auth:verifyTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Text>{mode === 'code' ? t('auth:verifyIntro') : t('auth:recoveryHint')}</Text>
          {context.error ? (
            <Text role="alert" color="fg.error" data-testid="verify-error">
              {t(`auth:${context.error}`)}
            </Text>
          ) : null}
          {mode === 'code' ? (
            <CodeInput value={code} onChange={setCode} invalid={touched && !CODE_PATTERN.test(code)} />
          ) : (
            <Field.Root invalid={touched && !recoveryValid} required>
              <Field.Label>{t('auth:recoveryCode')}</Field.Label>
              <Input
                name="recoveryCode"
                autoComplete="off"
                value={recovery}
                onChange={(e) => setRecovery(e.target.value)}
                fontFamily="mono"
              />
              <Field.ErrorText>{t('validation:recoveryCode')}</Field.ErrorText>
            </Field.Root>
          )}
          <Button type="submit" colorPalette="blue" loading={busy} loadingText={t('auth:confirming')} {...serverAction}>
            {t('auth:verify')}
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setMode(mode === 'code' ? 'recovery' : 'code');
              setTouched(false);
            }}
          >
            {mode === 'code' ? t('auth:useRecovery') : t('auth:useCode')}
          </Button>
          <Button variant="ghost" onClick={() => send({ type: 'session.cancel' })}>
            {t('auth:backToSignIn')}
          </Button>
        </Stack>
      </form>
    </PublicLayout>
  );
}
