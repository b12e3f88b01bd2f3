/** An organization's accent: readable text on it, and a variant readable on the page (WCAG arithmetic from the domain). */
import { contrastRatio as contrast, readableTextOn } from '../../../../src/domain/shared/colour-contrast';

type Rgb = [number, number, number];

const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hex = (c: Rgb): string => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

const mix = (c: Rgb, toward: Rgb, t: number): Rgb => c.map((v, i) => v + (toward[i]! - v) * t) as Rgb;

/** The page backgrounds of styles.css (light and dark schemes): links in the accent must read on them. */
const PAGE = { light: '#f6f7f9', dark: '#0f1318' };

/**
 * The accent as the console uses it: the organization's colour, moved toward white (dark scheme)
 * or black (light scheme) just enough to read as link text on the page (4.5:1), and the text on
 * accent buttons, black or white, whichever contrasts more.
 */
export function accentFor(color: string, darkScheme: boolean): { accent: string; text: string } {
  const page = darkScheme ? PAGE.dark : PAGE.light;
  const toward: Rgb = darkScheme ? [255, 255, 255] : [0, 0, 0];
  let accent = color.toLowerCase();
  for (let t = 0.1; contrast(accent, page) < 4.5 && t <= 1; t += 0.1) accent = hex(mix(rgb(color), toward, t));
  return { accent, text: readableTextOn(accent) };
}
