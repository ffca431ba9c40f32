import { Box, Card, Flex, Heading } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../language-switch';

/** The frame of the public pages: the product name, the language switch, one card. */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <Flex minH="100vh" direction="column" bg="bg.subtle">
      <Flex as="header" justify="space-between" align="center" px={{ base: '4', md: '8' }} py="4">
        <Box fontWeight="bold" color="brand.700" fontSize="lg">
          {t('appName')}
        </Box>
        <LanguageSwitch />
      </Flex>
      <Flex
        as="main"
        id="main"
        flex="1"
        align={{ base: 'stretch', sm: 'center' }}
        justify="center"
        px={{ base: '4', sm: '6' }}
        pb="12"
      >
        <Card.Root width={{ base: 'full', sm: '440px' }} maxW="full">
          <Card.Header>
            <Heading as="h1" size="lg">
              {title}
            </Heading>
          </Card.Header>
          <Card.Body>{children}</Card.Body>
        </Card.Root>
      </Flex>
    </Flex>
  );
}
