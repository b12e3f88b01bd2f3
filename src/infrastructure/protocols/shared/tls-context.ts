import tls from 'node:tls';
import { VerifiedChains, type VerifiedChainsOptions } from './verified-chains';

/**
 * One secure context for every check connection (never one per check): the system roots plus any
 * extra roots the operator (or a test) trusts. Verification is done on the result, not by refusing
 * the handshake, so a bad certificate is still described in the evidence.
 */
export class SharedTlsContext {
  readonly context: tls.SecureContext;
  /**
   * No trusted roots: OpenSSL's verification stops at once and Node does not decode the chain. For
   * handshakes whose chain already has a verdict in `verifiedChains`.
   */
  private readonly unverifying = tls.createSecureContext({ ca: [] as string[] });
  readonly verifiedChains: VerifiedChains;

  constructor(
    /** The extra roots, for a client library that builds its own context from PEMs (mysql2). */
    readonly extraCa: readonly string[] = [],
    chains: VerifiedChainsOptions = {},
  ) {
    this.context = tls.createSecureContext(extraCa.length ? { ca: [...tls.rootCertificates, ...extraCa] } : {});
    this.verifiedChains = new VerifiedChains(chains);
  }

  /**
   * Options for tls.connect: the shared context, SNI for names (not IP literals), no refusal.
   * `verify: false` trusts no root, for a handshake whose chain is judged from `verifiedChains`.
   */
  options(servername: string, verify = true): tls.ConnectionOptions {
    return {
      secureContext: verify ? this.context : this.unverifying,
      servername: isIp(servername) ? undefined : servername,
      rejectUnauthorized: false,
    };
  }
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');
