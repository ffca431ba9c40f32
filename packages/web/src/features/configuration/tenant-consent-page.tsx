/**
 * /configuration/tenant-consent: where Microsoft's admin consent endpoint sends the administrator
 * back (the portal's redirect URI). The page passes the answer to the server once, takes it out of
 * the address, and shows how the consent ended: the tenant connected and its connection test, a
 * decline, or Microsoft's error with its AADSTS code explained.
 */
import { Alert, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { TenantConsentAnswer, TenantConsentOutcome } from '@compliance-portal/sdk';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert } from '../../components/ui/form-field';
import { PageHeader } from '../../components/ui/page-header';
import { WRAPPING_BUTTON } from '../../components/ui/wrapping-button';
import { messageKeyOf } from '../../errors/api-errors';
import type { TranslationKey } from '../../i18n/keys';
import { useFinishConsent } from './api/consent';
import { MissingPermissions } from './missing-permissions';
import type { ConsentSearch } from './tenant-consent-search';

/** The AADSTS codes explained in the portal's own words; others are told as Microsoft said them. */
const EXPLAINED = [65004, 90094, 700016, 7000215, 7000222, 7000229, 50011, 90002, 70011, 900144, 50034] as const;
type ExplainedCode = (typeof EXPLAINED)[number];
const isExplained = (code: number | undefined): code is ExplainedCode => EXPLAINED.some((c) => c === code);

function answerOf(search: ConsentSearch): TenantConsentAnswer {
  return {
    state: search.state ?? '',
    ...(search.admin_consent !== undefined ? { adminConsent: search.admin_consent } : {}),
    ...(search.tenant !== undefined ? { tenant: search.tenant } : {}),
    ...(search.scope !== undefined ? { scope: search.scope } : {}),
    ...(search.error !== undefined ? { error: search.error } : {}),
    ...(search.error_description !== undefined ? { errorDescription: search.error_description } : {}),
  };
}

/** Why a consent did not end in a connection, in the portal's words, with Microsoft's code and message. */
function NotGranted({ outcome }: { outcome: TenantConsentOutcome }) {
  const { t } = useTranslation();
  const declined = outcome.outcome === 'declined';
  const code = outcome.errorCode;
  const explanationKey: TranslationKey = isExplained(code)
    ? `tenantConnection:errors.aadsts${code}`
    : outcome.error === 'otherTenant' || outcome.error === 'invalidAnswer'
      ? `tenantConnection:errors.${outcome.error}`
      : 'tenantConnection:errors.generic';
  return (
    <Alert.Root
      status={declined ? 'warning' : 'error'}
      role="alert"
      data-testid="consent-outcome"
      data-outcome={outcome.outcome}
    >
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0">
        <Alert.Title>
          {t(declined ? 'tenantConnection:callback.declined' : 'tenantConnection:callback.failed')}
        </Alert.Title>
        <Text>
          {declined ? t('tenantConnection:callback.declinedText') : t(explanationKey, { error: outcome.error ?? '' })}
        </Text>
        {code !== undefined ? (
          <Text fontSize="sm">{t('tenantConnection:callback.code', { code: `AADSTS${code}` })}</Text>
        ) : null}
        {outcome.description ? (
          <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
            {t('tenantConnection:callback.said', { text: outcome.description })}
          </Text>
        ) : null}
      </Alert.Content>
    </Alert.Root>
  );
}

/** A granted consent: the tenant connected, and the connection test run at once, as the tenants page shows it. */
function Granted({ outcome }: { outcome: TenantConsentOutcome }) {
  const { t } = useTranslation();
  const name = outcome.tenant?.tenantName ?? '';
  const test = outcome.connectionTest;
  return (
    <Stack gap="4" data-testid="consent-outcome" data-outcome="granted">
      <StatusAlert status="success">{t('tenantConnection:callback.granted', { name })}</StatusAlert>
      {test ? (
        <Stack gap="2">
          <Text as="h2" fontWeight="semibold">
            {t('tenantConnection:callback.test')}
          </Text>
          <StatusAlert status={test.ok ? 'success' : 'error'}>
            <span data-testid="connection-result">
              {test.ok
                ? t('configuration:testOk', { name, ms: test.latencyMs })
                : t('configuration:testFailed', { name, reason: test.message ?? '' })}
            </span>
          </StatusAlert>
          {test.missingPermissions?.length ? (
            <MissingPermissions name={name} missing={test.missingPermissions} />
          ) : null}
        </Stack>
      ) : null}
      {test?.ok && !test.missingPermissions?.length ? (
        // The tenant works: what the setup guide asks next, here where it is done.
        <Stack gap="2" align="flex-start" data-testid="consent-next">
          <Text>{t('tenantConnection:callback.next')}</Text>
          <Button asChild colorPalette="blue" {...WRAPPING_BUTTON}>
            <Link to="/configuration" search={{ tab: 'locations' }}>
              {t('tenantConnection:callback.nextAction')}
            </Link>
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}

export function TenantConsentPage() {
  const { t } = useTranslation();
  const search = getRouteApi('/_app/_worker/configuration_/tenant-consent').useSearch();
  const navigate = useNavigate();
  const finish = useFinishConsent();
  const sent = useRef(false);
  const { mutate } = finish;

  useEffect(() => {
    if (sent.current || !search.state) return;
    sent.current = true;
    mutate(answerOf(search));
    // The answer leaves the address and the history once it is read: a reload does not send it again.
    void navigate({ to: '/configuration/tenant-consent', search: {}, replace: true });
  }, [search, mutate, navigate]);

  const outcome = finish.data;
  return (
    <>
      <PageHeader title={t('tenantConnection:callback.title')} help="configuration.a3" />
      <Stack gap="5" maxW="3xl">
        {finish.isPending ? (
          <HStack gap="3" role="status" aria-live="polite">
            <Spinner size="sm" />
            <Text>{t('tenantConnection:callback.working')}</Text>
          </HStack>
        ) : null}
        {finish.error ? <StatusAlert status="error">{t(`apiErrors:${messageKeyOf(finish.error)}`)}</StatusAlert> : null}
        {outcome?.outcome === 'granted' ? <Granted outcome={outcome} /> : null}
        {outcome && outcome.outcome !== 'granted' ? <NotGranted outcome={outcome} /> : null}
        {finish.isIdle && !sent.current ? <Text>{t('tenantConnection:callback.noAnswer')}</Text> : null}
        {finish.isPending ? null : (
          <Button asChild variant="outline" alignSelf="flex-start">
            <Link to="/configuration">{t('tenantConnection:callback.back')}</Link>
          </Button>
        )}
      </Stack>
    </>
  );
}
