import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { Deadline } from '../../../application/checks/ports';
import type { DomainRegistration } from '../../../domain/checks/domain-expiry';
import { connectPinned } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';

const MAX_ANSWER = 256 * 1024;
const EXPIRY =
  /^\s*(?:registry expiry date|registrar registration expiration date|expiration date|expiry date|expires(?: on)?|paid-till|expire|renewal date)\s*:\s*(.+)$/im;
const REGISTRAR = /^\s*(?:registrar|registrar name|sponsoring registrar)\s*:\s*(.+)$/im;
const NOT_FOUND = /no match|not found|no data found|no entries found|status:\s*free|available for registration/i;

/**
 * The WHOIS fallback for TLDs without RDAP: a plain port-43 exchange (RFC 3912), asking the root
 * server (whois.iana.org by default) which server holds the TLD, then that server about the domain.
 * Each server is vetted and pinned by the target policy like every other connection a check makes.
 */
export class WhoisClient {
  constructor(
    private readonly policy: TargetPolicy,
    private readonly rootServer: string,
  ) {}

  async lookup(domain: string, deadline: Deadline): Promise<DomainRegistration | 'notFound'> {
    const tld = domain.split('.').pop()!;
    const root = await this.ask(this.rootServer, tld, deadline);
    const refer = /^\s*(?:refer|whois)\s*:\s*(\S+)/im.exec(root)?.[1];
    const answer = refer ? await this.ask(refer, domain, deadline) : await this.ask(this.rootServer, domain, deadline);
    return parseWhois(domain, answer);
  }

  private async ask(server: string, query: string, deadline: Deadline): Promise<string> {
    const [host, port] = splitServer(server);
    const { socket } = await connectPinned(this.policy, { host, port, deadline });
    return new Promise<string>((resolve, reject) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > MAX_ANSWER) socket.destroy();
      });
      socket.once('close', () => resolve(text));
      socket.once('error', reject);
      socket.end(`${query}\r\n`);
    });
  }
}

export function parseWhois(domain: string, text: string): DomainRegistration | 'notFound' {
  const expiry = EXPIRY.exec(text)?.[1]?.trim();
  if (!expiry && NOT_FOUND.test(text)) return 'notFound';
  const expiresAt = expiry ? new Date(expiry.replace(/^(\d{4})\.(\d{2})\.(\d{2})/, '$1-$2-$3')) : null;
  return {
    domain,
    source: 'whois',
    expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : null,
    registrar: REGISTRAR.exec(text)?.[1]?.trim() ?? null,
  };
}

function splitServer(server: string): [string, number] {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(server);
  if (!match) throw new ProbeError('domainLookupFailed', `Bad WHOIS server ${server}`);
  return [match[1]!, match[2] ? Number(match[2]) : 43];
}
