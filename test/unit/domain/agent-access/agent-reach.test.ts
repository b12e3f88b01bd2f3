import { expect } from 'chai';
import { agentReachDenial, type AgentReachRequest } from '../../../../src/domain/agent-access/agent-reach';

const reach = (request: Partial<AgentReachRequest> & Pick<AgentReachRequest, 'method' | 'path'>) =>
  agentReachDenial({ scopes: ['api.read'], authorizingUserResolved: true, writesEnabled: true, ...request });

describe('agentReachDenial', () => {
  it('tools.public: GET /api/tools/* only', () => {
    expect(reach({ scopes: ['tools.public'], method: 'GET', path: '/api/tools/dns-lookup' })).to.equal(null);
    expect(reach({ scopes: ['tools.public'], method: 'HEAD', path: '/api/tools/whois/example.com' })).to.equal(null);
    expect(reach({ scopes: ['tools.public'], method: 'GET', path: '/api/tools' })).to.equal('agentTokenReadOnly');
    expect(reach({ scopes: ['tools.public'], method: 'GET', path: '/api/websites' })).to.equal('agentTokenReadOnly');
    expect(reach({ scopes: ['tools.public'], method: 'GET', path: '/api/health' })).to.equal('agentTokenReadOnly');
  });

  it('api.read adds GET /api/websites*, /api/incidents* and /api/health', () => {
    for (const path of [
      '/api/websites',
      '/api/websites/abc/check-history',
      '/api/incidents',
      '/api/incidents/1/updates',
      '/api/health',
      '/api/tools/ping',
    ]) {
      expect(reach({ method: 'GET', path }), path).to.equal(null);
    }
  });

  it('every other read answers agentTokenReadOnly', () => {
    for (const path of [
      '/api/users',
      '/api/auth/get-session',
      '/api/customers',
      '/api/organization',
      '/api/websites-export',
      '/api/healthz',
      '/api/customer/tokens',
    ]) {
      expect(reach({ method: 'GET', path }), path).to.equal('agentTokenReadOnly');
    }
    expect(reach({ method: 'OPTIONS', path: '/api/websites' })).to.equal('agentTokenReadOnly');
  });

  it('any write answers agentTokenReadOnly while the write switch is off, whatever the scope', () => {
    const scopes = ['api.read', 'api.write.monitors', 'api.write.incidents'];
    expect(reach({ scopes, writesEnabled: false, method: 'POST', path: '/api/websites' })).to.equal('agentTokenReadOnly');
    expect(reach({ scopes, writesEnabled: false, method: 'PATCH', path: '/api/incidents/1' })).to.equal('agentTokenReadOnly');
  });

  it('with the switch on, a write outside the granted write scope answers agentTokenScopeForbidden', () => {
    expect(reach({ method: 'POST', path: '/api/websites' })).to.equal('agentTokenScopeForbidden');
    expect(reach({ scopes: ['api.write.incidents'], method: 'POST', path: '/api/websites' })).to.equal('agentTokenScopeForbidden');
    expect(reach({ scopes: ['api.write.monitors'], method: 'POST', path: '/api/incidents' })).to.equal('agentTokenScopeForbidden');
    expect(reach({ scopes: ['api.write.monitors'], method: 'PUT', path: '/api/websites/1' })).to.equal('agentTokenScopeForbidden');
  });

  it('api.write.monitors and api.write.incidents open their fixed method and path pairs', () => {
    const monitors = ['api.write.monitors'];
    for (const [method, path] of [
      ['POST', '/api/websites'],
      ['PATCH', '/api/websites/1'],
      ['DELETE', '/api/websites/1'],
      ['PATCH', '/api/websites/1/check-config'],
      ['POST', '/api/websites/1/trigger-check'],
      ['POST', '/api/monitors/dns/1/trigger-check'],
      ['POST', '/api/monitors/tcp/1/trigger-check'],
      ['POST', '/api/monitors/dns'],
      ['PATCH', '/api/monitors/dns/4'],
      ['POST', '/api/maintenance-windows'],
      ['POST', '/api/tags'],
      ['DELETE', '/api/monitor-tags'],
    ]) {
      expect(reach({ scopes: monitors, method: method!, path: path! }), `${method} ${path}`).to.equal(null);
    }
    const incidents = ['api.write.incidents'];
    for (const [method, path] of [
      ['POST', '/api/incidents'],
      ['PATCH', '/api/incidents/9'],
      ['DELETE', '/api/incidents/9'],
      ['POST', '/api/incidents/9/resolve'],
    ]) {
      expect(reach({ scopes: incidents, method: method!, path: path! }), `${method} ${path}`).to.equal(null);
    }
  });

  it('billing, credentials, tokens and the rest of the denylist stay unreachable for every scope', () => {
    const scopes = ['api.read', 'api.write.monitors', 'api.write.incidents'];
    for (const [method, path] of [
      ['PATCH', '/api/organizations/1/billing'],
      ['POST', '/api/organization/tokens'],
      ['POST', '/api/customer/tokens'],
      ['POST', '/api/auth/sign-out'],
      ['PATCH', '/api/users/1'],
      ['POST', '/api/users/1/mfa/reset'],
      ['DELETE', '/api/oauth/connections/x'],
      ['POST', '/api/agent-claim/confirm'],
      ['PATCH', '/api/platform-admin/settings'],
      ['PATCH', '/api/organization/smtp'],
      ['POST', '/api/billing/discount'],
    ]) {
      expect(reach({ scopes, method: method!, path: path! }), `${method} ${path}`).to.equal('agentTokenScopeForbidden');
    }
  });

  it('creating a tag or a change request needs a resolvable authorizing user', () => {
    const scopes = ['api.write.monitors'];
    expect(reach({ scopes, authorizingUserResolved: false, method: 'POST', path: '/api/tags' })).to.equal('authorizingUserUnresolved');
    expect(reach({ scopes, authorizingUserResolved: false, method: 'POST', path: '/api/websites/1/change-requests' })).to.equal(
      'authorizingUserUnresolved',
    );
    expect(reach({ scopes, authorizingUserResolved: false, method: 'POST', path: '/api/monitors/dns/2/change-requests' })).to.equal(
      'authorizingUserUnresolved',
    );
    expect(reach({ scopes, authorizingUserResolved: false, method: 'POST', path: '/api/websites' })).to.equal(null);
    expect(reach({ scopes, authorizingUserResolved: false, method: 'PATCH', path: '/api/tags/3' })).to.equal(null);
  });
});
