/**
 * Black or white, whichever reads better on a colour (`#rrggbb`; anything else reads as black, so
 * white text): WCAG relative luminance, contrast against white (1.05)/(L+0.05), against black
 * (L+0.05)/0.05, the larger wins (white on a tie). The public page's header and the console's
 * preview of it both ask this one function (the console imports it from the domain).
 */
export function readableTextOn(hex: string): '#000000' | '#ffffff' {
  if (!/^#[0-9a-fA-F]{6}$/.test(hex)) return '#ffffff';
  const channel = (i: number) => {
    const v = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000';
}
