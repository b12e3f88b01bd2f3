import type { PeerCertificate, DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { CertificateEvidence, CertificateSummary } from '../../../domain/checks/check-result';
import { daysUntil } from '../../../domain/checks/certificate-expiry';

const name = (entity: Record<string, string | string[] | undefined> | undefined): string => {
  if (!entity) return '';
  const cn = entity.CN;
  if (cn) return Array.isArray(cn) ? cn.join(', ') : cn;
  return Object.entries(entity).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`).join(', ');
};

export function summarize(cert: PeerCertificate, now: Date): CertificateSummary {
  const validTo = new Date(cert.valid_to);
  return {
    subject: name(cert.subject as unknown as Record<string, string>),
    issuer: name(cert.issuer as unknown as Record<string, string>),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: validTo.toISOString(),
    daysRemaining: daysUntil(validTo, now),
    fingerprint: cert.fingerprint256,
  };
}

/** The leaf with its verification outcome and the issuers the peer sent (self-signed roots end the walk). */
export function certificateOf(socket: TLSSocket, now: Date, decoded: DetailedPeerCertificate | null = null): CertificateEvidence | null {
  const leaf = decoded ?? (socket.getPeerCertificate(true) as DetailedPeerCertificate);
  if (!leaf || !leaf.valid_to) return null;
  const chain: CertificateSummary[] = [];
  let current = leaf;
  while (current.issuerCertificate && current.issuerCertificate !== current && chain.length < 8) {
    current = current.issuerCertificate;
    chain.push(summarize(current, now));
  }
  return {
    ...summarize(leaf, now),
    subjectAltNames: (leaf.subjectaltname ?? '').split(', ').filter(Boolean).map((s) => s.replace(/^(DNS|IP Address):/, '')),
    authorized: socket.authorized,
    authorizationError: socket.authorized ? null : String(socket.authorizationError ?? 'unknown'),
    chain,
  };
}
