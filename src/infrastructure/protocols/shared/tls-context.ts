import tls from 'node:tls';

/**
 * One secure context for every check connection (never one per check): the system roots plus any
 * extra roots the operator (or a test) trusts. Verification is done on the result, not by refusing
 * the handshake, so a bad certificate is still described in the evidence.
 */
export class SharedTlsContext {
  readonly context: tls.SecureContext;

  constructor(extraCa: readonly string[] = []) {
    this.context = tls.createSecureContext(extraCa.length ? { ca: [...tls.rootCertificates, ...extraCa] } : {});
  }

  /** Options for tls.connect: the shared context, SNI for names (not IP literals), no refusal. */
  options(servername: string): tls.ConnectionOptions {
    return {
      secureContext: this.context,
      servername: isIp(servername) ? undefined : servername,
      rejectUnauthorized: false,
      checkServerIdentity: (host, cert) => tls.checkServerIdentity(host, cert),
    };
  }
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');
