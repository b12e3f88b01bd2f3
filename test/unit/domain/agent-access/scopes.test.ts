import { expect } from 'chai';
import { delegableScopes, isSubset, parseScopes } from '../../../../src/domain/agent-access/scopes';
import { assertPaidUpgradeAllowed } from '../../../../src/domain/agent-access/paid-upgrade-policy';
import type { AppError } from '../../../../src/domain/shared/app-error';

describe('agent scopes', () => {
  it('parses OAuth scope strings and lists, deduplicated; null when absent', () => {
    expect(parseScopes('api.read  tools.public api.read')).to.deep.equal(['api.read', 'tools.public']);
    expect(parseScopes(['api.read', ' '])).to.deep.equal(['api.read']);
    expect(parseScopes(undefined)).to.equal(null);
    expect(isSubset(['api.read'], ['api.read', 'tools.public'])).to.equal(true);
    expect(isSubset(['api.write.monitors'], ['api.read'])).to.equal(false);
  });

  it('lets each role delegate no more than it may do', () => {
    expect(delegableScopes('admin')).to.include('api.write.monitors');
    expect(delegableScopes('responder')).to.deep.equal(['tools.public', 'api.read', 'api.write.incidents']);
    expect(delegableScopes('readonly')).to.deep.equal(['tools.public', 'api.read']);
  });

  it('requires allowPaidQuotaUpgrade: true for paid upgrades over an agent connection', () => {
    const code = (work: () => void) => {
      try {
        work();
        return 'none';
      } catch (error) {
        return (error as AppError).code;
      }
    };
    expect(code(() => assertPaidUpgradeAllowed({ isAgent: true }))).to.equal('paidQuotaUpgradeNotAuthorized');
    expect(code(() => assertPaidUpgradeAllowed({ isAgent: true, allowPaidQuotaUpgrade: false }))).to.equal('paidQuotaUpgradeNotAuthorized');
    expect(code(() => assertPaidUpgradeAllowed({ isAgent: true, allowPaidQuotaUpgrade: true }))).to.equal('none');
    expect(code(() => assertPaidUpgradeAllowed({ isAgent: false }))).to.equal('none');
  });
});
