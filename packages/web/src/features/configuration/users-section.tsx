import { Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { ApiError, microsoft365FailureOf } from '@compliance-portal/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusAlert, TextField } from '../../components/ui/form-field';
import { showToast } from '../../components/ui/toaster';
import { rules, useValidator } from '../../components/ui/validation';
import { useServerAction } from '../../offline/online';
import { M365FailureAlert } from '../../shared/m365-failure';
import { useApi } from '../../shared/tenant';
import { configurationKeys } from './api/keys';
import { PortalUsers } from './portal-users';

export function UsersSection({ tenantId, organisationId }: { tenantId: string; organisationId: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const serverAction = useServerAction();
  const sync = useMutation({
    mutationFn: () => api.apollo.configuration.syncUsers({ body: { tenantId } }, { disableToast: true }),
  });
  // The server says what Microsoft 365 refused (a secret, a permission) alongside the catalogue message.
  const syncBody = sync.error instanceof ApiError ? sync.error.body : undefined;
  const syncDetail =
    syncBody && typeof syncBody === 'object' && 'detail' in syncBody && typeof syncBody.detail === 'string'
      ? syncBody.detail
      : null;
  const [touched, setTouched] = useState(false);
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const check = useValidator();
  const errors = {
    email: check(email, rules.required(), rules.email()),
    displayName: check(displayName, rules.required(), rules.maxLength(120)),
  };
  const create = useMutation({
    mutationFn: () =>
      api.legacy.user.create({
        body: { email: email.trim(), displayName: displayName.trim(), role: 'admin', organisationId },
      }),
    onSuccess: (user) => {
      showToast('success', t('configuration:userCreated', { email: user.email }));
      void queryClient.invalidateQueries({ queryKey: configurationKeys.users(organisationId) });
      setEmail('');
      setDisplayName('');
      setTouched(false);
    },
  });
  return (
    <Stack gap="5">
      <PortalUsers organisationId={organisationId} />
      <Card.Root>
        <Card.Body gap="3">
          <Text as="h2" fontWeight="semibold">
            {t('configuration:sync')}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {t('configuration:syncIntro')}
          </Text>
          <Button
            alignSelf="flex-start"
            size="sm"
            colorPalette="blue"
            loading={sync.isPending}
            onClick={() => sync.mutate()}
            {...serverAction}
          >
            {t('configuration:sync')}
          </Button>
          {sync.data ? (
            <StatusAlert status="success">
              <span data-testid="sync-result">
                {t('configuration:synced', {
                  count: sync.data.synchronized,
                  added: sync.data.added,
                  removed: sync.data.removed,
                })}
              </span>
            </StatusAlert>
          ) : null}
          {sync.error && microsoft365FailureOf(sync.error) ? (
            <M365FailureAlert title={t('configuration:syncFailed')} error={sync.error} />
          ) : sync.error ? (
            <StatusAlert status="error">
              <Stack gap="1">
                <span data-testid="sync-failed">{t('configuration:syncFailed')}</span>
                {syncDetail ? (
                  <Text fontSize="sm" data-testid="sync-detail">
                    {syncDetail}
                  </Text>
                ) : null}
              </Stack>
            </StatusAlert>
          ) : null}
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Body>
          <form
            // Our own translated messages instead of the browser's bubbles.
            noValidate
            aria-labelledby="create-user-title"
            onSubmit={(e) => {
              e.preventDefault();
              setTouched(true);
              if (!errors.email && !errors.displayName) create.mutate();
            }}
          >
            <Stack gap="3" maxW="md">
              <Text as="h2" id="create-user-title" fontWeight="semibold">
                {t('configuration:createUser')}
              </Text>
              <TextField
                label={t('configuration:email')}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={errors.email}
                showError={touched}
              />
              <TextField
                label={t('configuration:displayName')}
                value={displayName}
                maxLength={120}
                onChange={(e) => setDisplayName(e.target.value)}
                error={errors.displayName}
                showError={touched}
              />
              <Text fontSize="sm" color="fg.muted">
                {t('configuration:createUserRole')}
              </Text>
              <HStack>
                <Button type="submit" size="sm" colorPalette="blue" loading={create.isPending} {...serverAction}>
                  {t('configuration:createUserButton')}
                </Button>
              </HStack>
              {create.error ? (
                <StatusAlert status="error">
                  {create.error instanceof ApiError ? t(`apiErrors:${create.error.messageKey}`) : String(create.error)}
                </StatusAlert>
              ) : null}
            </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
