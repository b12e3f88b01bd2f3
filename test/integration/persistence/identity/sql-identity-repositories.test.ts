import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { SqlApiTokenRepository } from '../../../../src/infrastructure/identity/sql-api-token.repository';
import { SqlOrganizationRepository } from '../../../../src/infrastructure/identity/sql-organization.repository';
import { SqlSessionRepository } from '../../../../src/infrastructure/identity/sql-session.repository';
import { SqlUserRepository } from '../../../../src/infrastructure/identity/sql-user.repository';
import { CallerCache } from '../../../../src/infrastructure/identity/caller-cache';
import { NodeSecretTokens } from '../../../../src/infrastructure/security/node-secret-tokens';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { codeOf } from '../../../support/expect-app-error';
import { testServer } from '../../../support/test-server';
import { standalone } from '../../../support/unit-of-work';

const LATER = new Date('2026-12-01T00:00:00Z');

/**
 * Identity's repositories on the sql kit: each save names the version it read (sessions and API
 * tokens got theirs with the conversion), so of two writers holding the same version the second is
 * told `conflict` and writes nothing; the mappers read back what they wrote.
 */
describe("identity's sql repositories (optimistic versions)", () => {
  async function setup() {
    const org = await anOrganization('identity-sql');
    const app = await testServer();
    const unit = standalone(app.database.sql);
    const callers = new CallerCache();
    return {
      org,
      scope: organizationScope(org.user.organizationId),
      organizations: new SqlOrganizationRepository(unit, callers),
      users: new SqlUserRepository(unit, callers),
      sessions: new SqlSessionRepository(unit, callers),
      tokens: new SqlApiTokenRepository(unit, callers),
    };
  }

  it('an organization and a user saved by one writer are a conflict for the other holding the same version', async () => {
    const { org, scope, organizations, users } = await setup();
    const [first, second] = [await organizations.findById(scope.organizationId), await organizations.findById(scope.organizationId)];
    first!.updateProfile({ billingEmail: 'first@example.com' }, LATER);
    await organizations.save(first!, poolTx());
    second!.updateProfile({ billingEmail: 'second@example.com' }, LATER);
    expect(await codeOf(organizations.save(second!, poolTx()))).to.equal('conflict');
    expect(await organizations.findByRef(String(first!.publicId))).to.deep.include({ billingEmail: 'first@example.com', version: 2 });

    const [one, other] = [await users.findById(scope, org.user.id), await users.findById(scope, org.user.id)];
    one!.beginTwoFactorEnrolment('SECRET', ['h1', 'h2'], LATER);
    await users.save(one!, poolTx());
    other!.rename('Second writer', LATER);
    expect(await codeOf(users.save(other!, poolTx()))).to.equal('conflict');
    const stored = await users.findForSignIn(org.user.id);
    expect(stored).to.deep.include({ totpSecret: 'SECRET', backupCodeHashes: ['h1', 'h2'], version: 2, customerId: null });
    expect(stored!.updatedAt.toISOString()).to.equal(LATER.toISOString());
  });

  it('a session stepped up and an API token renamed: the second save of one version answers conflict', async () => {
    const { org, scope, sessions, tokens } = await setup();
    const hash = new NodeSecretTokens().hash(org.token);
    const [first, second] = [await sessions.findByTokenHash(hash), await sessions.findByTokenHash(hash)];
    expect(first!.version).to.equal(1);
    first!.markSteppedUp(LATER);
    await sessions.save(first!, poolTx());
    second!.markSteppedUp(LATER);
    expect(await codeOf(sessions.save(second!, poolTx()))).to.equal('conflict');
    expect((await sessions.findById(first!.id))!.stepUpVerifiedAt!.toISOString()).to.equal(LATER.toISOString());

    const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'versioned' } });
    expect(minted.status).to.equal(201);
    const [one, other] = [await tokens.findById(scope, minted.body.id), await tokens.findById(scope, minted.body.id)];
    one!.rename('first writer', LATER);
    await tokens.save(one!, poolTx());
    other!.revoke(LATER);
    expect(await codeOf(tokens.save(other!, poolTx()))).to.equal('conflict');
    expect(await tokens.findById(scope, minted.body.id)).to.deep.include({ name: 'first writer', revokedAt: null, version: 2 });
  });
});
