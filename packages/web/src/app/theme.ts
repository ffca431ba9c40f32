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
    },
  }),
);
