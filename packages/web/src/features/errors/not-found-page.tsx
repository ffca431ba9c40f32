import { Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <Flex as="main" id="main" minH="60vh" align="center" justify="center" px="4">
      <Stack gap="4" textAlign="center" maxW="lg" data-testid="not-found">
        <Heading as="h1" size="2xl">
          {t('notFoundTitle')}
        </Heading>
        <Text>{t('notFoundText')}</Text>
        <Button asChild colorPalette="blue" alignSelf="center">
          <RouterLink to="/">{t('goToHomepage')}</RouterLink>
        </Button>
      </Stack>
    </Flex>
  );
}
