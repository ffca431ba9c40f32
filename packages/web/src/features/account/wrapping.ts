/**
 * Button props that let a long label (German especially) wrap at 320 px instead of widening the page:
 * no wider than its container, also in a row of buttons.
 */
export const WRAPPING_LABEL = {
  whiteSpace: 'normal',
  height: 'auto',
  minH: '8',
  py: '1.5',
  textAlign: 'start',
  maxW: 'full',
  flexShrink: 1,
} as const;
