/** "A new version is available": reload to use it, or later. Not modal: work goes on meanwhile. */
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { appUpdate } from './updates';

export function UpdatePrompt() {
  const pending = useSyncExternalStore(appUpdate.subscribe, appUpdate.pending, () => false);
  const { t } = useTranslation('offline');
  const [reloading, setReloading] = useState(false);
  if (!pending && !reloading) return null;
  return (
    <Box
      as="aside"
      aria-labelledby="update-title"
      position="fixed"
      insetEnd={{ base: '2', md: '4' }}
      insetStart={{ base: '2', md: 'auto' }}
      bottom={{ base: '2', md: '4' }}
      maxW={{ md: 'sm' }}
      zIndex="toast"
      bg="bg.panel"
      borderWidth="1px"
      borderRadius="l2"
      boxShadow="lg"
      p="4"
      data-testid="update-prompt"
    >
      <Text id="update-title" fontWeight="semibold" role="status">
        {t('updateAvailable')}
      </Text>
      <Text textStyle="sm" color="fg.muted" mt="1">
        {t('updateHelp')}
      </Text>
      <HStack mt="3" justify="flex-end">
        <Button size="sm" variant="outline" onClick={() => appUpdate.dismiss()} disabled={reloading}>
          {t('later')}
        </Button>
        <Button
          size="sm"
          colorPalette="blue"
          loading={reloading}
          onClick={() => {
            setReloading(true);
            void appUpdate.accept();
          }}
        >
          {t('reload')}
        </Button>
      </HStack>
    </Box>
  );
}
