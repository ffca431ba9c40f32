import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useOnline } from './online';

/**
 * The reason an action is disabled, next to it, where the banner cannot be read (inside a modal
 * dialog, which hides the rest of the page). Nothing while online.
 */
export function OfflineNote({ id }: { id: string }) {
  const online = useOnline();
  const { t } = useTranslation('offline');
  if (online) return null;
  return (
    <Text id={id} textStyle="sm" color="fg.warning" role="status" flex="1">
      {t('actionDisabled')}
    </Text>
  );
}
