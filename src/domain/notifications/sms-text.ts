/** One SMS segment: 160 septets of the GSM 03.38 alphabet (a longer text is split and billed as several). */
export const SMS_SEPTETS = 160;

const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the extension table: an escape septet and their own. */
const EXTENDED = '^{}\\[~]|€\f';
const LOOKALIKES: Readonly<Record<string, string>> = {
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  '\t': ' ',
  '\u00a0': ' ',
};
const ELLIPSIS = '...';

const septetsOf = (char: string) => (EXTENDED.includes(char) ? 2 : 1);

/**
 * The text as one GSM-7 segment: characters outside the GSM alphabet become a look-alike or `?` (a
 * single non-GSM character would switch the whole message to UCS-2 and 70 characters), and a text
 * over 160 septets is cut and ends with `...`, so every alert is billed as one message.
 */
export function fitSms(text: string): string {
  const chars = [...text].flatMap((char) => [...(BASIC.includes(char) || EXTENDED.includes(char) ? char : (LOOKALIKES[char] ?? '?'))]);
  const total = chars.reduce((sum, char) => sum + septetsOf(char), 0);
  if (total <= SMS_SEPTETS) return chars.join('');
  let kept = '';
  let used = 0;
  for (const char of chars) {
    if (used + septetsOf(char) > SMS_SEPTETS - ELLIPSIS.length) break;
    kept += char;
    used += septetsOf(char);
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}

/** How many septets a GSM-7 text takes (extension characters count twice). */
export function smsSeptets(text: string): number {
  return [...text].reduce((sum, char) => sum + septetsOf(char), 0);
}
