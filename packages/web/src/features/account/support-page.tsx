import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';

export function SupportPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:support')} />
      <Stack gap="2" maxW="prose">
        <Text>{t('support:intro')}</Text>
        <Text fontWeight="semibold">{t('support:hours')}</Text>
      </Stack>
    </>
  );
}
