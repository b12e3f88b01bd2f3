import { AppError } from '../shared/app-error';
import { classifyAddress } from '../shared/network/address-class';
import { parseTargetUrl } from '../shared/network/target-url';

export type ChannelUrlRejection = 'malformed' | 'reservedName' | 'nonPublicAddress';

/**
 * Whether the service may connect to an address: public space, or a range the operator allowlisted
 * (CHECK_PRIVATE_ALLOWLIST), as the target policy answers. The default admits public space only.
 */
export type AddressAllowance = (address: string) => boolean;

const PUBLIC_ONLY: AddressAllowance = () => false;

/**
 * The write-time rule for a URL the service posts to (channel webhooks and chat incoming webhooks,
 * status-page webhook subscribers), judged on the text: http or https, parsed as the HTTP client
 * will (WHATWG URL), no userinfo, a host that is neither localhost, a reserved or single-label name
 * nor an IP literal outside public space, unless the operator allowlisted its range (the same
 * CHECK_PRIVATE_ALLOWLIST as every other connection). Names are judged again at delivery by the
 * target policy, which resolves them and pins the vetted address (no rebinding).
 */
export function judgeChannelUrl(
  value: string,
  allowsPrivate: AddressAllowance = PUBLIC_ONLY,
): { ok: true; href: string } | { ok: false; reason: ChannelUrlRejection; host?: string } {
  const parsed = parseTargetUrl(value);
  if (!parsed.ok) return parsed;
  const host = parsed.parsed.host;
  if (host.kind === 'ip' && classifyAddress(host.address) !== 'public' && !allowsPrivate(host.address.text)) {
    return { ok: false, reason: 'nonPublicAddress', host: host.address.text };
  }
  return { ok: true, href: parsed.href };
}

const EXPLAINED: Record<ChannelUrlRejection, string> = {
  malformed: 'is not an http(s) URL without credentials',
  reservedName: 'is not a public address: localhost and reserved or single-label names are refused',
  nonPublicAddress: 'is not a public address: it points at a private, loopback, link-local or metadata address',
};

const HOW: Record<ChannelUrlRejection, string> = {
  malformed: 'Send an absolute http(s) URL without user name or password, such as https://hooks.example.com/alerts.',
  reservedName:
    "Use the receiver's public name, or its IP address (127.0.0.1 for this machine); private and loopback " +
    'ranges are refused unless the operator allows them with CHECK_PRIVATE_ALLOWLIST.',
  nonPublicAddress:
    'Use a public receiver, or have the operator allow the range with CHECK_PRIVATE_ALLOWLIST ' +
    '(for example CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8 for this machine).',
};

/**
 * Throws the spec's 400 invalidRequestBody for a URL the rule refuses: the message names the field
 * and why, `data.hint` says how to fix it.
 */
export function assertChannelUrl(field: string, value: string, allowsPrivate: AddressAllowance = PUBLIC_ONLY): string {
  const verdict = judgeChannelUrl(value, allowsPrivate);
  if (!verdict.ok) {
    throw new AppError(
      'invalidRequestBody',
      { field, reason: verdict.reason, ...(verdict.host ? { host: verdict.host } : {}), hint: HOW[verdict.reason] },
      `${field}${verdict.host ? ` ${verdict.host}` : ''} ${EXPLAINED[verdict.reason]}`,
    );
  }
  return verdict.href;
}
