import { Accordion, Button, Clipboard, Code, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../shared/tenant';
import { consentSetupQuery } from './api/queries';
import { PermissionsTable } from './permissions-table';

/** The portal's redirect URI for admin consent, with a button that copies it. */
function RedirectUri({ uri }: { uri: string }) {
  const { t } = useTranslation();
  return (
    <HStack gap="2" wrap="wrap" align="center">
      <Text fontSize="sm" fontWeight="medium">
        {t('tenantConnection:guide.redirectUri')}:
      </Text>
      <Code overflowWrap="anywhere" data-testid="consent-redirect-uri">
        {uri}
      </Code>
      <Clipboard.Root value={uri}>
        <Clipboard.Trigger asChild>
          <Button size="xs" variant="outline">
            <Clipboard.Indicator copied={t('common:copied')}>{t('common:copy')}</Clipboard.Indicator>
          </Button>
        </Clipboard.Trigger>
      </Clipboard.Root>
    </HStack>
  );
}

/**
 * Beside the tenant forms: how to prepare the app registration in the Microsoft Entra admin center
 * (the steps, the portal's redirect URI) and the permissions it needs, each with the areas that use
 * it. Both parts fold away; the permissions are open at first. Memoised: it takes no props, and the
 * form beside it renders again at every keystroke (a long permissions table each time).
 */
export const AppRegistrationGuide = memo(function AppRegistrationGuide() {
  const { t } = useTranslation();
  const api = useApi();
  const setup = useQuery(consentSetupQuery(api));
  return (
    <Accordion.Root multiple defaultValue={['permissions']} variant="enclosed" data-testid="app-registration-guide">
      <Accordion.Item value="steps">
        <Accordion.ItemTrigger>
          <Text as="h3" flex="1" fontWeight="semibold">
            {t('tenantConnection:guide.title')}
          </Text>
          <Accordion.ItemIndicator />
        </Accordion.ItemTrigger>
        <Accordion.ItemContent>
          <Accordion.ItemBody>
            <Stack gap="3" fontSize="sm">
              <Text>{t('tenantConnection:guide.intro')}</Text>
              <List.Root as="ol" ps="5" gap="2">
                <List.Item>{t('tenantConnection:guide.register')}</List.Item>
                <List.Item>{t('tenantConnection:guide.permissions')}</List.Item>
                <List.Item>{t('tenantConnection:guide.secret')}</List.Item>
              </List.Root>
              {setup.data ? <RedirectUri uri={setup.data.redirectUri} /> : null}
              <Text color="fg.muted">{t('tenantConnection:guide.partner')}</Text>
            </Stack>
          </Accordion.ItemBody>
        </Accordion.ItemContent>
      </Accordion.Item>
      <Accordion.Item value="permissions">
        <Accordion.ItemTrigger>
          <Text as="h3" flex="1" fontWeight="semibold">
            {t('tenantConnection:permissions.title')}
          </Text>
          <Accordion.ItemIndicator />
        </Accordion.ItemTrigger>
        <Accordion.ItemContent>
          <Accordion.ItemBody>
            <PermissionsTable
              permissions={setup.data?.permissions}
              loading={setup.isFetching}
              error={setup.error}
              onRetry={() => void setup.refetch()}
            />
          </Accordion.ItemBody>
        </Accordion.ItemContent>
      </Accordion.Item>
    </Accordion.Root>
  );
});
