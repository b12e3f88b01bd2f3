import { AppError } from '../../domain/shared/app-error';
import type { CustomDomain } from '../../domain/custom-domains/custom-domain';
import type { CustomDomainRepository, TxtRecords } from './ports';

/**
 * Proves a pending entry: no other organization may hold the hostname (domainAlreadyClaimed), and
 * the entry's token must be published as a TXT record at `_monitoring-verify.<hostname>` as the
 * service's resolvers see it (customDomainVerificationFailed, saying where and what to publish).
 */
export class DomainOwnership {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly txt: TxtRecords,
  ) {}

  async prove(domain: CustomDomain): Promise<void> {
    if (await this.domains.claimedElsewhere(domain.hostname, domain.organizationId)) throw new AppError('domainAlreadyClaimed');
    const answer = await this.txt.lookup(domain.verificationRecordName);
    const expected = { recordName: domain.verificationRecordName, recordType: 'TXT', expectedValue: domain.verificationToken };
    if ('error' in answer) throw new AppError('customDomainVerificationFailed', { ...expected, reason: answer.error });
    if (!domain.isProvedBy(answer.values)) {
      throw new AppError('customDomainVerificationFailed', {
        ...expected,
        reason: answer.values.length ? 'tokenMismatch' : 'recordMissing',
      });
    }
  }
}
