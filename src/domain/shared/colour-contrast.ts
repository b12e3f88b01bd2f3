/**
 * WCAG 2 colour arithmetic on `#rrggbb` colours, the one place it is written: the public status
 * page's header text, the console's preview of it, and the console's accent (an organization's
 * colour made readable on the page) all ask these functions.
 */

/** WCAG 2 relative luminance of a `#rrggbb` colour (0 for black to 1 for white). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const v = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, from 1 (the same) to 21 (black and white). */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * Black or white, whichever reads better on a colour (`#rrggbb`; anything else reads as black, so
 * white text): the larger contrast ratio wins, white on a tie.
 */
export function readableTextOn(hex: string): '#000000' | '#ffffff' {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) return '#ffffff';
  return contrastRatio(hex, '#ffffff') >= contrastRatio(hex, '#000000') ? '#ffffff' : '#000000';
}
