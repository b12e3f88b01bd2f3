import { expect } from 'chai';
import { agentScopeDecision } from '../../../../src/interfaces/http/shared/gates/agent-scope.gate';
import type { PlatformSettings } from '../../../../src/application/identity/ports';
import { anActor } from '../../../support/builders';

const ON: PlatformSettings = { agentAuthEnabled: true, agentWritesEnabled: false, serviceAuthEnabled: true };
const agent = (agentScopes: string[], userId: string | null = 'u1') => anActor().asAgent(agentScopes).withUser(userId).build();

describe('agent scope gate', () => {
  it('lets every other caller through untouched', () => {
    expect(agentScopeDecision(anActor().build(), 'DELETE', '/api/users/1', { ...ON, agentAuthEnabled: false })).to.equal(null);
    expect(agentScopeDecision(anActor().viaApiToken().build(), 'GET', '/api/users', ON)).to.equal(null);
  });

  it('refuses agent tokens with 503 (no code) while agent auth is off', () => {
    expect(agentScopeDecision(agent(['api.read']), 'GET', '/api/health', { ...ON, agentAuthEnabled: false })).to.equal(
      'agentAuthUnavailable',
    );
  });

  it('applies the scope allowlists and the write kill-switch', () => {
    expect(agentScopeDecision(agent(['api.read']), 'GET', '/api/health', ON)).to.equal(null);
    expect(agentScopeDecision(agent(['tools.public']), 'GET', '/api/health', ON)).to.equal('agentTokenReadOnly');
    expect(agentScopeDecision(agent(['api.write.monitors']), 'POST', '/api/websites', ON)).to.equal('agentTokenReadOnly');
    expect(agentScopeDecision(agent(['api.write.monitors']), 'POST', '/api/websites', { ...ON, agentWritesEnabled: true })).to.equal(null);
    expect(agentScopeDecision(agent(['api.read']), 'POST', '/api/websites', { ...ON, agentWritesEnabled: true })).to.equal(
      'agentTokenScopeForbidden',
    );
    expect(agentScopeDecision(agent(['api.write.monitors'], null), 'POST', '/api/tags', { ...ON, agentWritesEnabled: true })).to.equal(
      'authorizingUserUnresolved',
    );
  });
});
