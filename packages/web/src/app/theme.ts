import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  badgeRecipe,
  breadcrumbSlotRecipe,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  colorSwatchRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  fileUploadSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/** The layout breakpoints: 0, 600, 900, 1200, 1350 and 1536 px. */
const BREAKPOINTS = { sm: '600px', md: '900px', lg: '1200px', xl: '1350px', '2xl': '1536px' } as const;

/**
 * Chakra's default theme (`defaultConfig`) with the recipes of the components the portal uses only:
 * all 76 recipes cost about 12 KB gzip before the first page renders. A component whose recipe is
 * missing renders unstyled without an error, so `pnpm budgets` (bench/budgets.mjs) fails when a
 * bundled Chakra component asks for a recipe that is not listed here: add it from
 * '@chakra-ui/react/theme' under the key the component names (e.g. `tooltip: tooltipSlotRecipe`).
 */
/**
 * Chakra's colour palettes the portal names (`colorPalette`, `gray.600`, ...). Each palette costs
 * 11 tokens and 7 semantic tokens (light and dark) that createSystem builds and the page's style
 * sheet carries: yellow, teal, cyan and pink are left out. A palette missing here renders its
 * colours as unresolved variables, so add it before using it.
 */
export const COLOR_PALETTES = ['gray', 'red', 'orange', 'green', 'blue', 'purple'] as const;
/** Each palette's shade for a solid background at rest and when hovered (a darker one). */
const SOLID: Record<(typeof COLOR_PALETTES)[number], readonly [number, number]> = {
  gray: [900, 700],
  red: [600, 700],
  orange: [700, 800],
  green: [700, 800],
  blue: [600, 700],
  purple: [600, 700],
};
const ALL_PALETTES = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'cyan', 'purple', 'pink'];
const unusedPalette = (key: string) =>
  ALL_PALETTES.includes(key) && !(COLOR_PALETTES as readonly string[]).includes(key);
function withoutUnusedPalettes<T extends Record<string, unknown>>(colors: T): T {
  return Object.fromEntries(Object.entries(colors).filter(([key]) => !unusedPalette(key))) as T;
}

/** Chakra's button, its hovered or open solid variant the palette's darker `solidHover` (below). */
const portalButtonRecipe = {
  ...buttonRecipe,
  variants: {
    ...buttonRecipe.variants,
    variant: {
      ...buttonRecipe.variants?.variant,
      solid: {
        ...buttonRecipe.variants?.variant?.solid,
        _hover: { bg: 'colorPalette.solidHover' },
        _expanded: { bg: 'colorPalette.solidHover' },
      },
    },
  },
};

const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    keyframes,
    tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors ?? {}) },
    semanticTokens: { ...semanticTokens, colors: withoutUnusedPalettes(semanticTokens.colors ?? {}) },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: portalButtonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      colorSwatch: colorSwatchRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      breadcrumb: breadcrumbSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      fileUpload: fileUploadSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      popover: popoverSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      tag: tagSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

let system: SystemContext | undefined;

/**
 * The Chakra system, built on first use rather than when the module loads: main.tsx builds it in a
 * task of its own before the first render, so neither that task nor the module evaluation blocks
 * the page for long (Lighthouse's total blocking time).
 */
export function getSystem(): SystemContext {
  system ??= buildSystem();
  return system;
}

const buildSystem = () =>
  createSystem(
    defaultBaseConfig,
    chakraTheme,
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
            // A solid button or badge is `solid` with the palette's `contrast` (white) on it, and a
            // hovered or open solid button is `solidHover` (portalButtonRecipe, above): each keeps
            // white text at 4.5:1 or more. Chakra's orange.600 and green.600 give 3.6:1 and 3.3:1,
            // and its hover (the solid colour at 90 %) makes blue 4.3:1 (theme.test.ts measures).
            ...Object.fromEntries(
              Object.entries(SOLID).map(([palette, [solid, hover]]) => [
                palette,
                {
                  solid: { value: { _light: `{colors.${palette}.${solid}}`, _dark: `{colors.${palette}.${solid}}` } },
                  solidHover: {
                    value: { _light: `{colors.${palette}.${hover}}`, _dark: `{colors.${palette}.${hover}}` },
                  },
                },
              ]),
            ),
          },
        },
      },
    }),
  );
