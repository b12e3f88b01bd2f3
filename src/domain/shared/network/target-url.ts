import { type HostParse, parseHost } from './host';

export type TargetUrlParse =
  | { readonly ok: true; readonly href: string; readonly host: string; readonly parsed: HostParse & { ok: true } }
  | { readonly ok: false; readonly reason: 'malformed' | 'reservedName' };

/**
 * A monitored URL: http or https, parsed with the WHATWG URL standard (what the HTTP client uses),
 * so `http://0x7f.1/`, `http://%31%32%37.0.0.1/` and full-width digits all become the address they
 * mean before the host is judged. Userinfo in any form is refused (it hides the real host from
 * readers: `http://example.com@10.0.0.1/`), as are backslashes, whitespace and port 0.
 */
export function parseTargetUrl(value: unknown, options: { readonly reservedNames?: boolean } = {}): TargetUrlParse {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return { ok: false, reason: 'malformed' };
  if (/[\s\u0000-\u001f\u007f\\]/.test(value) || !/^https?:\/\//i.test(value)) return { ok: false, reason: 'malformed' };
  const authority = value.slice(value.indexOf('//') + 2).split(/[/?#]/, 1)[0]!;
  if (authority.includes('@')) return { ok: false, reason: 'malformed' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.port === '0') {
    return { ok: false, reason: 'malformed' };
  }
  const parsed = parseHost(url.hostname, options);
  if (!parsed.ok) return parsed;
  return { ok: true, href: url.href, host: url.hostname, parsed };
}
