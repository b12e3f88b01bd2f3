import { z } from 'zod';

/** An HTTP header name (a token, as RFC 9110 spells it). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/**
 * Headers a check sends: at most 30, each a token name and a one-line value of at most 4 KiB;
 * Host, Content-Length, Transfer-Encoding and Connection are the check's own (`hint` says what to
 * use instead, where there is something).
 */
export const requestHeadersSchema = (hint = '') =>
  z
    .record(
      z.string().regex(HEADER_NAME),
      z
        .string()
        .max(4096)
        .regex(/^[^\r\n]*$/),
    )
    .refine((h) => Object.keys(h).length <= 30, 'At most 30 headers')
    .refine(
      (h) => Object.keys(h).every((k) => !FORBIDDEN_HEADERS.has(k.toLowerCase())),
      `Host, Content-Length, Transfer-Encoding and Connection are set by the check${hint}`,
    );
