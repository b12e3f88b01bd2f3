import type { CustomDomain } from '../../../domain/custom-domains/custom-domain';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const presentCustomDomain = (domain: CustomDomain) => ({
  id: domain.publicId,
  hostname: domain.hostname,
  kind: domain.kind,
  statusPageId: domain.statusPageId,
  customerId: domain.customerId,
  status: domain.status,
  verification: { recordType: 'TXT' as const, recordName: domain.verificationRecordName, recordValue: domain.verificationToken },
  expiresAt: iso(domain.expiresAt),
  verifiedAt: iso(domain.verifiedAt),
  activatedAt: iso(domain.activatedAt),
  createdAt: domain.createdAt.toISOString(),
  updatedAt: domain.updatedAt.toISOString(),
});
