import { AppError } from '../app-error';
import { type ParsedHost, parseHost } from './host';

export interface ConnectTarget {
  /** host[:port] as stored and shown: IPv6 bracketed, names lowercased. */
  readonly text: string;
  readonly host: ParsedHost;
  readonly port: number | null;
}

/**
 * Where a check connects instead of its url's host: `host` as the target policy takes it (a name, or
 * an address without brackets, never a port) and the port to dial (null: the url's own port).
 */
export interface ConnectTo {
  readonly host: string;
  readonly port: number | null;
}

/** The host of a parsed connectHost as the target policy takes it: the address text or the name. */
export const policyHostOf = (host: ParsedHost): string => (host.kind === 'ip' ? host.address.text : host.name);

const SHAPE = /^(?:\[(?<v6>[^\]]+)\]|(?<host>[^:[\]]+))(?::(?<port>\d{1,5}))?$/;

/**
 * connectHost: `host[:port]` without protocol, path or whitespace; IPv6 must be bracketed; port
 * 1-65535. Answers null for an empty value (unset). Throws connectHostInvalid when malformed and
 * connectHostNotPublic for reserved names; addresses are judged by the target policy.
 */
/** Where its refusals are: the connectHost field. */
const AT = { field: 'connectHost' };

export function parseConnectHost(value: unknown): ConnectTarget | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string' || value.length > 300) throw new AppError('connectHostInvalid', AT);
  const match = SHAPE.exec(value);
  if (!match?.groups) throw new AppError('connectHostInvalid', AT);
  const { v6, host, port: portText } = match.groups;
  const port = portText === undefined ? null : Number(portText);
  if (port !== null && (port < 1 || port > 65535)) throw new AppError('connectHostInvalid', AT);
  const parsed = parseHost(v6 !== undefined ? `[${v6}]` : host!);
  if (!parsed.ok) throw new AppError(parsed.reason === 'reservedName' ? 'connectHostNotPublic' : 'connectHostInvalid', AT);
  const hostText =
    parsed.host.kind === 'ip'
      ? parsed.host.address.version === 6
        ? `[${parsed.host.address.text}]`
        : parsed.host.address.text
      : parsed.host.name;
  return { text: port === null ? hostText : `${hostText}:${port}`, host: parsed.host, port };
}
