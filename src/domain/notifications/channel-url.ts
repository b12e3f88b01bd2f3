import { AppError } from '../shared/app-error';
import { classifyAddress } from '../shared/network/address-class';
import { parseTargetUrl } from '../shared/network/target-url';

export type ChannelUrlRejection = 'malformed' | 'reservedName' | 'nonPublicAddress';

/**
 * The static rule for a URL a channel posts to (webhooks, chat incoming webhooks), judged on the
 * text alone: http or https, parsed as the HTTP client will (WHATWG URL), no userinfo, a host that
 * is neither localhost, a reserved or single-label name nor an IP literal outside public space.
 * Names are not resolved here: what a name points to is judged at delivery time by the target
 * policy, which pins the vetted address (no rebinding) and is where CHECK_PRIVATE_ALLOWLIST applies.
 */
export function judgeChannelUrl(value: string): { ok: true; href: string } | { ok: false; reason: ChannelUrlRejection } {
  const parsed = parseTargetUrl(value);
  if (!parsed.ok) return parsed;
  const host = parsed.parsed.host;
  if (host.kind === 'ip' && classifyAddress(host.address) !== 'public') return { ok: false, reason: 'nonPublicAddress' };
  return { ok: true, href: parsed.href };
}

/** Throws the spec's 400 invalidRequestBody, naming the field and why, for a URL the rule refuses. */
export function assertChannelUrl(field: string, value: string): string {
  const verdict = judgeChannelUrl(value);
  if (!verdict.ok) throw new AppError('invalidRequestBody', { field, reason: verdict.reason }, `${field}: not a public http(s) URL (${verdict.reason})`);
  return verdict.href;
}
