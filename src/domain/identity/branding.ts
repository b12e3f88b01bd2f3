import { AppError } from '../shared/app-error';

/** An accent colour: `#rrggbb` (six hex digits), kept in lower case. */
export const ACCENT_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The image types a console logo may have: ones every browser draws from a data URL. */
export const BRAND_LOGO = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The largest logo (decoded bytes): it is read on every sign-in page of a white-label host, before sign-in. */
export const MAX_BRAND_LOGO_BYTES = 32 * 1024;

/** Decoded size of a base64 text, without decoding it. */
const decodedBytes = (base64: string): number => (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/** What an organization shows of itself on its white-label hosts: name (its own), logo and accent colour. */
export interface BrandingChange {
  accentColor?: string | null;
  logo?: string | null;
}

/** A refusal shaped like the API's schema failures: 400 validationFailed naming the field. */
const refused = (field: string, message: string) =>
  new AppError('validationFailed', { issues: [{ path: [field], message }] }, `${field}: ${message}`);

/** The accent colour as stored (`#rrggbb`, lower case); refuses anything else (validationFailed naming accentColor). */
export function accentColor(value: string | null): string | null {
  if (value === null) return null;
  if (!ACCENT_COLOR.test(value)) throw refused('accentColor', 'Must be #rrggbb');
  return value.toLowerCase();
}

/** A logo as stored: a base64 data URL of a PNG, JPEG, GIF, WebP or SVG image of at most 32 KiB decoded. */
export function brandLogo(value: string | null): string | null {
  if (value === null) return null;
  const match = BRAND_LOGO.exec(value);
  if (!match || match[2]!.length % 4 !== 0) {
    throw refused('logo', 'Must be a data:image/(png|jpeg|gif|webp|svg+xml);base64, URL');
  }
  if (decodedBytes(match[2]!) > MAX_BRAND_LOGO_BYTES) {
    throw refused('logo', `At most ${MAX_BRAND_LOGO_BYTES} bytes once decoded`);
  }
  return value;
}
