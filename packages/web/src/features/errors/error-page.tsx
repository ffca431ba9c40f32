import { Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The fallback page: to the login page (through /logout) or to the homepage. */
export function ErrorPage() {
  const { t } = useTranslation('errors');
  return (
    <Flex as="main" id="main" minH="100vh" align="center" justify="center" px="4">
      <Stack gap="4" textAlign="center" maxW="lg" data-testid="error-page">
        <Heading as="h1" size="2xl">
          {t('errorPageTitle')}
        </Heading>
        <Text>{t('errorPageText')}</Text>
        <Flex gap="3" justify="center" wrap="wrap">
          <Button asChild variant="outline">
            <RouterLink to="/logout">{t('goToLogin')}</RouterLink>
          </Button>
          <Button asChild colorPalette="blue">
            <RouterLink to="/">{t('goToHomepage')}</RouterLink>
          </Button>
        </Flex>
      </Stack>
    </Flex>
  );
}
