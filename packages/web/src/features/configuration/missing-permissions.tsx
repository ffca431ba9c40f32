import { Alert, Code, List, Text } from '@chakra-ui/react';
import type { MissingPermission } from '@compliance-portal/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The Microsoft Graph application permissions a connection test found missing from the tenant's
 * app registration, each with the areas of the portal that need it: a warning beside the result, since
 * a connection that works may still lack permissions some areas need.
 */
export function MissingPermissions({ name, missing }: { name: string; missing: readonly MissingPermission[] }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const areas = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  return (
    <Alert.Root status="warning" role="status" aria-labelledby={titleId} data-testid="missing-permissions">
      <Alert.Indicator />
      <Alert.Content minW="0" gap="2">
        <Text as="h2" id={titleId} fontWeight="semibold">
          {t('configuration:missingPermissions.title')}
        </Text>
        <Text>{t('configuration:missingPermissions.intro', { name })}</Text>
        <List.Root as="ul" ps="5" gap="1">
          {missing.map((m) => (
            <List.Item key={m.permission} overflowWrap="anywhere">
              <Code>{m.permission}</Code>{' '}
              {t('configuration:missingPermissions.neededBy', {
                areas: areas.format(m.areas.map((a) => t(`configuration:missingPermissions.areas.${a}`))),
              })}
            </List.Item>
          ))}
        </List.Root>
      </Alert.Content>
    </Alert.Root>
  );
}
