/**
 * Button props that let a label wrap on a narrow screen instead of running past its edge (Chakra's
 * buttons keep one line at a fixed height and do not shrink): for link-buttons with long labels, such
 * as German ones.
 */
export const WRAPPING_BUTTON = {
  maxW: 'full',
  flexShrink: 1,
  whiteSpace: 'normal',
  height: 'auto',
  minH: '8',
  py: '1',
  textAlign: 'start',
} as const;
