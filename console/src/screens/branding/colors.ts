/** Colour arithmetic for an organization's accent: readable text on it, and a variant readable on the page. */

type Rgb = [number, number, number];

const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hex = (c: Rgb): string => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

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
  const text = contrast(accent, '#ffffff') >= contrast(accent, '#000000') ? '#ffffff' : '#000000';
  return { accent, text };
}
