import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { CustomDomain, PENDING_LIFETIME_MS } from '../../../../src/domain/custom-domains/custom-domain';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { SqlCustomDomainRepository } from '../../../../src/infrastructure/custom-domains/sql-custom-domain.repository';
import { SqlActiveHostDirectory } from '../../../../src/infrastructure/custom-domains/sql-active-host-directory';
import { anOrganization } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { testServer } from '../../../support/test-server';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const T0 = new Date('2026-12-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('SqlCustomDomainRepository (custom_domains)', () => {
  async function setup() {
    const [a, b] = await Promise.all([anOrganization('domains-a'), anOrganization('domains-b')]);
    const { database } = await testServer();
    const hostname = `claim-${randomBytes(4).toString('hex')}.acme-agency.com`;
    const claim = (organizationId: number, now = T0) =>
      CustomDomain.claim({
        publicId: randomUUID(),
        organizationId,
        customerId: null,
        hostname,
        kind: 'whiteLabel',
        statusPageId: null,
        verificationToken: `mv-${randomBytes(16).toString('hex')}`,
        now,
      });
    return {
      a: a.user.organizationId,
      b: b.user.organizationId,
      hostname,
      claim,
      repo: new SqlCustomDomainRepository(standalone(database.sql)),
      directory: new SqlActiveHostDirectory(database.sql),
    };
  }

  it("reads back what it stored, in the organization's scope only", async () => {
    const { a, b, claim, repo } = await setup();
    const stored = await repo.add(claim(a), T0);
    const found = await repo.findByRef(organizationScope(a), stored.publicId, T0);
    expect(found).to.deep.include({
      hostname: stored.hostname,
      status: 'pending',
      verificationToken: stored.verificationToken,
      version: 1,
    });
    expect(found!.createdAt.toISOString()).to.equal(T0.toISOString());
    expect(await repo.findByRef(organizationScope(b), stored.publicId, T0)).to.equal(null);
  });

  it('a pending entry is gone after 7 days: not found, not listed, and the hostname can be added again', async () => {
    const { a, claim, repo } = await setup();
    const stored = await repo.add(claim(a), T0);
    const justBefore = at(PENDING_LIFETIME_MS - 1);
    expect(await repo.findByRef(organizationScope(a), stored.publicId, justBefore)).to.not.equal(null);
    expect(await codeOf(repo.add(claim(a, justBefore), justBefore))).to.equal('customDomainExists');
    const expiry = at(PENDING_LIFETIME_MS);
    expect(await repo.findByRef(organizationScope(a), stored.publicId, expiry)).to.equal(null);
    expect(await repo.list(organizationScope(a), expiry)).to.deep.equal([]);
    const again = await repo.add(claim(a, expiry), expiry);
    expect((await repo.list(organizationScope(a), expiry)).map((d) => d.publicId)).to.deep.equal([again.publicId]);
  });

  it('the database holds a hostname for one organization: the second verified save answers domainAlreadyClaimed', async () => {
    const { a, b, hostname, claim, repo } = await setup();
    const first = await repo.add(claim(a), T0);
    const second = await repo.add(claim(b), T0);
    first.verify(T0);
    second.verify(T0);
    await repo.save(first);
    // No application check in between: the partial unique index alone refuses it.
    expect(await codeOf(repo.save(second))).to.equal('domainAlreadyClaimed');
    expect(await repo.claimedElsewhere(hostname, b)).to.equal(true);
    expect(await repo.claimedElsewhere(hostname, a)).to.equal(false);
    expect((await repo.findByRef(organizationScope(b), second.publicId, T0))!.status).to.equal('pending');
  });

  it('a stale version answers conflict', async () => {
    const { a, claim, repo } = await setup();
    const stored = await repo.add(claim(a), T0);
    const copy = (await repo.findByRef(organizationScope(a), stored.publicId, T0))!;
    stored.verify(T0);
    await repo.save(stored);
    copy.verify(T0);
    expect(await codeOf(repo.save(copy))).to.equal('conflict');
  });

  it('the active-host directory answers active entries only', async () => {
    const { a, hostname, claim, repo, directory } = await setup();
    const stored = await repo.add(claim(a), T0);
    stored.verify(T0);
    await repo.save(stored);
    expect(await directory.find(hostname)).to.equal(null);
    stored.activate(T0);
    await repo.save(stored);
    expect(await directory.find(hostname)).to.deep.equal({
      hostname,
      organizationId: a,
      customerId: null,
      kind: 'whiteLabel',
      statusPage: null,
    });
    await repo.remove(stored);
    expect(await directory.find(hostname)).to.equal(null);
  });

  it('purgeExpired deletes pending entries 7 days old and keeps the rest', async () => {
    const { a, b, claim, repo } = await setup();
    const expired = await repo.add(claim(a), T0);
    const held = await repo.add(claim(b), T0);
    held.verify(T0);
    await repo.save(held);
    const fresh = await repo.add(claim(a, at(1)), at(1)).catch(() => null); // one entry per organization: a's is taken
    expect(fresh).to.equal(null);
    const purged = await repo.purgeExpired(at(PENDING_LIFETIME_MS));
    expect(purged).to.be.at.least(1);
    const { database } = await testServer();
    const left = await database.sql.query<{ public_id: string }>(
      sql`SELECT public_id FROM custom_domains WHERE public_id IN (${expired.publicId}, ${held.publicId})`,
    );
    expect(left.map((row) => row.public_id)).to.deep.equal([held.publicId]);
  });
});
