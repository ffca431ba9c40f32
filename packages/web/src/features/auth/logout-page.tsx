import { Button, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../components/layout/public-layout';

/** Where every logout lands; it sends the user on to the sign-in page. */
export function LogoutPage() {
  const { t } = useTranslation('auth');
  return (
    <PublicLayout title={t('loggedOutTitle')}>
      <Stack gap="4">
        <Text>{t('loggedOutText')}</Text>
        <Button asChild colorPalette="blue">
          <RouterLink to="/signin">{t('signIn')}</RouterLink>
        </Button>
      </Stack>
    </PublicLayout>
  );
}
