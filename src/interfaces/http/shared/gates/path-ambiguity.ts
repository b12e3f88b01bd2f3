import { AppError } from '../../../../domain/shared/app-error';

const ENCODED_SEPARATOR = /%(2f|5c)/i;
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

/**
 * True when the path could mean two different things to two different parsers: an encoded slash or
 * backslash, a dot segment, a double slash or a backslash, at any level of percent-encoding.
 */
export function isAmbiguousPath(rawPath: string): boolean {
  let current = rawPath;
  for (let depth = 0; depth < 4; depth++) {
    if (ENCODED_SEPARATOR.test(current) || current.includes('//') || current.includes('\\')) return true;
    if (DOT_SEGMENT.test(current)) return true;
    if (!current.includes('%')) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true;
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}

/** Runs before routing, on the path exactly as the client sent it. */
export function assertUnambiguousPath(originalUrl: string): void {
  const query = originalUrl.indexOf('?');
  const path = query >= 0 ? originalUrl.slice(0, query) : originalUrl;
  if (isAmbiguousPath(path)) throw new AppError('apiTokenPathAmbiguous');
}
