import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { Deadline } from '../../../application/checks/ports';
import type { DomainRegistration } from '../../../domain/checks/domain-expiry';
import { ProbeError } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';
import { emptyTrail, followRedirects } from '../http/redirects';

const BOOTSTRAP_TTL_MS = 24 * 3_600_000;
const MAX_JSON_BYTES = 2 * 1024 * 1024;
const RDAP_HEADERS = { accept: 'application/rdap+json, application/json' };

interface Bootstrap {
  services: [string[], string[]][];
}
interface RdapEntity {
  roles?: string[];
  handle?: string;
  vcardArray?: [string, [string, unknown, string, unknown][]];
  entities?: RdapEntity[];
}
interface RdapDomain {
  ldhName?: string;
  events?: { eventAction: string; eventDate: string }[];
  entities?: RdapEntity[];
}

/** 'notFound' = the registry does not know the name; null = no RDAP service for the TLD. */
export type RdapAnswer = DomainRegistration | 'notFound' | null;

/**
 * RDAP (RFC 9224 bootstrap from IANA's dns.json, RFC 9083 answers) over the same pinned HTTP path
 * the website checks use, so registry servers are vetted by the target policy too.
 */
export class RdapClient {
  private bootstrap: { at: number; data: Bootstrap } | null = null;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly bootstrapUrl: string,
    /** Identifies the service to registries (their rate limits and abuse desks look at it). */
    private readonly userAgent: string,
  ) {}

  async lookup(domain: string, deadline: Deadline, now: number): Promise<RdapAnswer> {
    const base = await this.serviceFor(domain.split('.').pop()!, deadline, now);
    if (!base) return null;
    const url = new URL(`domain/${encodeURIComponent(domain)}`, base.endsWith('/') ? base : `${base}/`);
    const { status, json } = await this.getJson(url, deadline);
    if (status === 404) return 'notFound';
    if (status !== 200 || !json) throw new ProbeError('domainLookupFailed', `RDAP answered HTTP ${status} for ${domain}`);
    const answer = json as RdapDomain;
    const expiry = answer.events?.find((e) => e.eventAction === 'expiration')?.eventDate;
    return { domain, expiresAt: expiry ? new Date(expiry) : null, registrar: registrarOf(answer.entities ?? []), source: 'rdap' };
  }

  private async serviceFor(tld: string, deadline: Deadline, now: number): Promise<string | null> {
    if (!this.bootstrap || now - this.bootstrap.at > BOOTSTRAP_TTL_MS) {
      const { status, json } = await this.getJson(new URL(this.bootstrapUrl), deadline);
      if (status !== 200 || !json || !Array.isArray((json as Bootstrap).services)) {
        throw new ProbeError('domainLookupFailed', `RDAP bootstrap unavailable (HTTP ${status})`);
      }
      this.bootstrap = { at: now, data: json as Bootstrap };
    }
    const entry = this.bootstrap.data.services.find(([tlds]) => tlds.includes(tld.toLowerCase()));
    const urls = entry?.[1] ?? [];
    return urls.find((u) => u.startsWith('https:')) ?? urls[0] ?? null;
  }

  private async getJson(url: URL, deadline: Deadline): Promise<{ status: number; json: unknown }> {
    const { response } = await followRedirects(
      this.policy,
      this.tls,
      {
        url,
        method: 'GET',
        headers: RDAP_HEADERS,
        body: null,
        userAgent: this.userAgent,
        follow: true,
        maxRedirects: 5,
        keepBodyBytes: MAX_JSON_BYTES,
        countLimit: MAX_JSON_BYTES,
        deadline,
        certificateAt: null,
      },
      emptyTrail(),
    );
    if (response.status !== 200) return { status: response.status, json: null };
    try {
      return { status: 200, json: JSON.parse(response.body?.toString('utf8') ?? '') };
    } catch {
      throw new ProbeError('domainLookupFailed', `RDAP answer from ${url.host} is not JSON`);
    }
  }
}

function registrarOf(entities: RdapEntity[]): string | null {
  const registrar = entities.find((e) => e.roles?.includes('registrar'));
  if (!registrar) return null;
  const fn = registrar.vcardArray?.[1]?.find(([name]) => name === 'fn');
  return typeof fn?.[3] === 'string' ? fn[3] : (registrar.handle ?? null);
}
