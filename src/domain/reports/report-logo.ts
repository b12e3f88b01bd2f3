/** The image type of logo bytes by their signature: PNG or JPEG, the two a PDF embeds as they are; null for anything else. */
export function logoType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Largest logo accepted, in bytes: a header image, not a photograph. */
export const MAX_LOGO_BYTES = 512 * 1024;
