import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** The figures the portal defines once (the `figures` texts; the server computes them so). */
export type DefinedFigure = 'itemsProtected' | 'itemsChanged' | 'storedBytes' | 'bytesRead';

/**
 * What the figures a screen shows mean, each in the words every screen, report, export and the
 * help center use: a list of terms and their definitions under the screen's figures.
 */
export function FigureDefinitions({ figures }: { figures: readonly DefinedFigure[] }) {
  const { t } = useTranslation();
  return (
    <Box as="section" aria-labelledby="figure-definitions" data-testid="figure-definitions">
      <Heading as="h2" size="xs" id="figure-definitions" mb="2">
        {t('figures:definitionsTitle')}
      </Heading>
      <Stack as="dl" gap="2" fontSize="sm">
        {figures.map((figure) => (
          <Box key={figure}>
            <Text as="dt" fontWeight="semibold">
              {t(`figures:${figure}.label`)}
            </Text>
            <Text as="dd" color="fg.muted" ms="0">
              {t(`figures:${figure}.definition`)}
            </Text>
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
