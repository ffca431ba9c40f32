import { describe, expect, it } from 'vitest';
import { COLOR_PALETTES, getSystem } from './theme';

/** Chakra's `white` and `black` are CSS colour names. */
const NAMED: Record<string, string> = { white: '#ffffff', black: '#000000' };

/** A colour token's value in the light theme, following `{colors.x.y}` references to the hex. */
function lightColour(name: string): string {
  const token = getSystem().tokens.getByName(`colors.${name}`);
  if (!token) throw new Error(`no colour token ${name}`);
  const conditions = token.extensions.conditions as Record<string, string> | undefined;
  const value = conditions?._light ?? String(token.originalValue);
  const reference = /^\{colors\.(.+)\}$/.exec(value);
  if (reference?.[1]) return lightColour(reference[1]);
  return NAMED[value] ?? value;
}

/** WCAG 2.1's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1's contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('solid colours', () => {
  it('measures what it is meant to: Chakra’s white on blue.600 is 5.17:1, on orange.600 3.56:1', () => {
    expect(contrast(lightColour('white'), lightColour('blue.600'))).toBeCloseTo(5.17, 1);
    expect(contrast(lightColour('white'), lightColour('orange.600'))).toBeCloseTo(3.56, 1);
  });

  it.each(COLOR_PALETTES)(
    '%s: white text on a solid button or badge, at rest and hovered, is 4.5:1 or more',
    (palette) => {
      const text = lightColour(`${palette}.contrast`);
      expect(text).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(text, lightColour(`${palette}.solid`))).toBeGreaterThanOrEqual(4.5);
      expect(contrast(text, lightColour(`${palette}.solidHover`))).toBeGreaterThanOrEqual(4.5);
      // The hover differs from the rest, so that it is seen.
      expect(lightColour(`${palette}.solidHover`)).not.toBe(lightColour(`${palette}.solid`));
    },
  );

  it('a hovered or open solid button takes its palette’s solidHover, not the solid colour at 90 %', () => {
    const solid = getSystem().getRecipe('button').variants?.variant?.solid as Record<string, unknown>;
    expect(solid._hover).toEqual({ bg: 'colorPalette.solidHover' });
    expect(solid._expanded).toEqual({ bg: 'colorPalette.solidHover' });
  });
});
