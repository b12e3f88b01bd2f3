import { randomInt } from 'node:crypto';
import type { UserCodes } from '../../application/agent-access/ports';

/** Consonants only (no vowels, no look-alikes): no words, easy to read out. 20^8 codes. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const CODE = new RegExp(`^[${ALPHABET}]{8}$`);

/** User codes in RFC 8628's style: `XXXX-XXXX`, case and separators ignored when typed back. */
export class RandomUserCodes implements UserCodes {
  generate(): string {
    const chars = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]);
    return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
  }

  normalize(code: string): string | null {
    const canonical = code.toUpperCase().replace(/[\s-]/g, '');
    return CODE.test(canonical) ? canonical : null;
  }
}
