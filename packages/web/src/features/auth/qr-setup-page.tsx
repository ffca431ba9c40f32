import { Box, Button, Code, Flex, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';
import { Loading } from '../../components/ui/loading';
import { RecoveryCodeList } from '../../components/ui/recovery-code-list';
import { useServerAction } from '../../offline/online';
import { useSession } from '../../session/context';
import { CODE_PATTERN, CodeInput } from './code-input';

const QrCode = lazy(() => import('./qr-code'));

function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('auth');
  const { send } = useSession();
  return (
    <Stack gap="4">
      <Text>{t('recoveryIntro')}</Text>
      <RecoveryCodeList codes={codes} />
      <Button
        colorPalette="blue"
        onClick={() => send({ type: 'session.acknowledgeRecoveryCodes' })}
        data-testid="recovery-saved"
      >
        {t('recoverySaved')}
      </Button>
    </Stack>
  );
}

export function QrSetupPage() {
  const { t } = useTranslation();
  const { context, matches, send } = useSession();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const serverAction = useServerAction();

  if (matches({ twoFactorSetup: 'showingRecoveryCodes' }) && context.recoveryCodes) {
    return (
      <PublicLayout title={t('auth:recoveryTitle')}>
        <RecoveryCodes codes={context.recoveryCodes} />
      </PublicLayout>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (CODE_PATTERN.test(code) && !serverAction.disabled) send({ type: 'session.confirmSetup', code });
  };

  return (
    <PublicLayout title={t('auth:qrTitle')}>
      {!context.qr ? (
        <Flex justify="center" py="8">
          <Loading />
        </Flex>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <Text>{t('auth:qrIntro')}</Text>
            <Flex justify="center" bg="white" p="2" borderRadius="md">
              <Suspense fallback={<Loading />}>
                <QrCode value={context.qr.otpauthUri} label={t('auth:qrAlt')} />
              </Suspense>
            </Flex>
            <Box>
              <Text fontSize="sm" color="fg.muted">
                {t('auth:manualKey')}
              </Text>
              <Code data-testid="manual-key" wordBreak="break-all" fontSize="sm">
                {context.qr.key}
              </Code>
            </Box>
            {context.error ? (
              <Text role="alert" color="fg.error">
                {t(`auth:${context.error}`)}
              </Text>
            ) : null}
            <CodeInput value={code} onChange={setCode} invalid={touched && !CODE_PATTERN.test(code)} />
            <Button
              type="submit"
              colorPalette="blue"
              loading={matches({ twoFactorSetup: 'confirming' })}
              loadingText={t('auth:confirming')}
              {...serverAction}
            >
              {t('auth:confirm')}
            </Button>
            <Button variant="ghost" onClick={() => send({ type: 'session.cancel' })}>
              {t('auth:backToSignIn')}
            </Button>
          </Stack>
        </form>
      )}
    </PublicLayout>
  );
}
