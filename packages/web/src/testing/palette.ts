/**
 * The Chakra colour palette an element is drawn in, as its style sheet sets it (`colorPalette="red"`
 * becomes `--chakra-colors-color-palette-fg: var(--chakra-colors-red-fg)`): the colour token, not a
 * prop or attribute of our own.
 */
export function paletteOf(element: Element): string | undefined {
  const value = getComputedStyle(element).getPropertyValue('--chakra-colors-color-palette-fg');
  return /--chakra-colors-([a-z]+)-fg\b/.exec(value)?.[1];
}
