import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** Product-spec.md section 9: layout breakpoints 0, 600, 900, 1200, 1350 and 1536 px. */
export const BREAKPOINTS = { sm: '600px', md: '900px', lg: '1200px', xl: '1350px', '2xl': '1536px' } as const;

export const system = createSystem(
  defaultConfig,
  defineConfig({
    theme: {
      breakpoints: BREAKPOINTS,
      tokens: {
        colors: {
          brand: {
            50: { value: '#e8f1fb' },
            100: { value: '#c5dcf4' },
            500: { value: '#1f5fa8' },
            600: { value: '#184d8a' },
            700: { value: '#123b6b' },
          },
        },
      },
      semanticTokens: {
        colors: {
          // Chakra's defaults (red.500, orange.600, ...) fall below 4.5:1 on white for body text;
          // these keep WCAG AA contrast for error, warning and muted text.
          fg: {
            error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.300}' } },
            warning: { value: { _light: '{colors.orange.800}', _dark: '{colors.orange.300}' } },
            success: { value: { _light: '{colors.green.700}', _dark: '{colors.green.300}' } },
          },
        },
      },
    },
  }),
);
