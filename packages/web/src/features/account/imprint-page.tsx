import { Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header';

/** The imprint: who operates the portal, how to reach them, the register entries. */
export function ImprintPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages:imprint')} />
      <Stack gap="5" maxW="prose" data-testid="imprint">
        <Stack gap="1" as="section">
          <Heading as="h2" size="sm">
            {t('account:imprint.operator')}
          </Heading>
          <Text fontWeight="semibold">{t('account:imprint.company')}</Text>
          <Text>{t('account:imprint.address')}</Text>
          <Text>{t('account:imprint.represented')}</Text>
          <Text>{t('account:imprint.register')}</Text>
          <Text>{t('account:imprint.vat')}</Text>
        </Stack>
        <Stack gap="1" as="section">
          <Heading as="h2" size="sm">
            {t('account:imprint.contact')}
          </Heading>
          <Text>
            {t('account:email')}: <a href={`mailto:${t('account:supportEmail')}`}>{t('account:supportEmail')}</a>
          </Text>
          <Text>
            {t('account:phone')}: {t('account:supportPhone')}
          </Text>
          <Text>{t('account:imprint.responsible')}</Text>
        </Stack>
        <Stack gap="1" as="section">
          <Heading as="h2" size="sm">
            {t('account:imprint.disputes')}
          </Heading>
          <Text>{t('account:imprint.disputesText')}</Text>
        </Stack>
      </Stack>
    </>
  );
}
