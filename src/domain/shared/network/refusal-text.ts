/**
 * Why a target (a URL or a host a check or a message would connect to) was refused, in a short
 * reason (the 4xx's message), and how to fix it (its `data.hint`).
 */
const WHY: Readonly<Record<string, string>> = {
  malformed: 'is not a valid address',
  reservedName: 'is not a public address: localhost and reserved or single-label names are refused',
  nonPublicAddress: 'is not a public address: it is or resolves to a private, loopback, link-local or metadata address',
  unresolvable: 'does not resolve to an address',
  notAName: 'must be a host name, not an address',
  notAnAddress: 'must be an IP address, not a name',
};

const HOW: Readonly<Record<string, string>> = {
  malformed: 'Send an absolute http(s) URL or a host name, such as https://shop.example.com/.',
  reservedName:
    'Use a public name, or address the target by its IP address (127.0.0.1 for this machine); private and ' +
    'loopback ranges are refused unless the operator allows them with CHECK_PRIVATE_ALLOWLIST.',
  nonPublicAddress:
    'Use a public address, or have the operator allow the range with CHECK_PRIVATE_ALLOWLIST ' +
    '(for example CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8 for this machine).',
  unresolvable: 'Check the name for typos, or address the target by its IP address.',
};

export function targetRefusal(field: string, reason: string, host?: string): string {
  return `${field}${host ? ` ${host}` : ''} ${WHY[reason] ?? `is refused (${reason})`}`;
}

/** How to fix a refused target, for `data.hint`; undefined where the reason says it all. */
export function targetHint(reason: string): string | undefined {
  return HOW[reason];
}

/** The details of a target refusal: the field, the reason, the host when known, and the hint. */
export function refusalDetails(field: string, reason: string, host?: string): Record<string, string> {
  const hint = targetHint(reason);
  return { field, reason, ...(host ? { host } : {}), ...(hint ? { hint } : {}) };
}
