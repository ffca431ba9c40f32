import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';

export function ImprintPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:imprint')} />
      <Stack gap="1" maxW="prose">
        <Text fontWeight="semibold">{t('common:appName')}</Text>
        <Text>{t('support:intro')}</Text>
      </Stack>
    </>
  );
}
