import type { PeerCertificate, DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { CertificateEvidence, CertificateSummary } from '../../../domain/checks/check-result';
import { daysUntil } from '../../../domain/checks/certificate-expiry';

/** A certificate's summary without the days left, which depend on when it is looked at. */
export type CertificateFacts = Omit<CertificateSummary, 'daysRemaining'>;

/**
 * What a handshake showed of the peer's chain, independent of the time it is looked at: the leaf,
 * its names, the verification outcome (chain and host name) and the issuers above it.
 */
export interface ChainDescription {
  readonly leaf: CertificateFacts;
  readonly subjectAltNames: readonly string[];
  readonly authorized: boolean;
  readonly authorizationError: string | null;
  readonly chain: readonly CertificateFacts[];
}

const name = (entity: Record<string, string | string[] | undefined> | undefined): string => {
  if (!entity) return '';
  const cn = entity.CN;
  if (cn) return Array.isArray(cn) ? cn.join(', ') : cn;
  return Object.entries(entity)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
    .join(', ');
};

const factsOf = (cert: PeerCertificate): CertificateFacts => ({
  subject: name(cert.subject as unknown as Record<string, string>),
  issuer: name(cert.issuer as unknown as Record<string, string>),
  validFrom: new Date(cert.valid_from).toISOString(),
  validTo: new Date(cert.valid_to).toISOString(),
  fingerprint: cert.fingerprint256,
});

const summaryAt = (facts: CertificateFacts, now: Date): CertificateSummary => ({
  ...facts,
  daysRemaining: daysUntil(new Date(facts.validTo), now),
});

/**
 * The peer's chain as the socket's handshake verified it: `decoded` is the chain Node already
 * decoded for the host-name check (decoding it again would double the most expensive JavaScript
 * step of a handshake); without it, the socket decodes it. Null when the peer sent no certificate.
 * Self-signed roots end the walk.
 */
export function describeChain(socket: TLSSocket, decoded: DetailedPeerCertificate | null = null): ChainDescription | null {
  const leaf = decoded ?? (socket.getPeerCertificate(true) as DetailedPeerCertificate);
  if (!leaf || !leaf.valid_to) return null;
  const chain: CertificateFacts[] = [];
  let current = leaf;
  while (current.issuerCertificate && current.issuerCertificate !== current && chain.length < 8) {
    current = current.issuerCertificate;
    chain.push(factsOf(current));
  }
  return {
    leaf: factsOf(leaf),
    subjectAltNames: (leaf.subjectaltname ?? '')
      .split(', ')
      .filter(Boolean)
      .map((s) => s.replace(/^(DNS|IP Address):/, '')),
    authorized: socket.authorized,
    authorizationError: socket.authorized ? null : String(socket.authorizationError ?? 'unknown'),
    chain,
  };
}

/** The evidence a chain gives, with days counted from `now`. */
export function evidenceOf(description: ChainDescription, now: Date): CertificateEvidence {
  return {
    ...summaryAt(description.leaf, now),
    subjectAltNames: description.subjectAltNames,
    authorized: description.authorized,
    authorizationError: description.authorizationError,
    chain: description.chain.map((facts) => summaryAt(facts, now)),
  };
}

/** The leaf of a socket's peer with its verification outcome and the issuers above it, with days counted from `now`. */
export function certificateOf(socket: TLSSocket, now: Date): CertificateEvidence | null {
  const description = describeChain(socket);
  return description && evidenceOf(description, now);
}
