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
import { poolTx } from '../../../support/pool-transaction';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';

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
    const stored = await repo.add(claim(a), T0, poolTx());
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
    const stored = await repo.add(claim(a), T0, poolTx());
    const justBefore = at(PENDING_LIFETIME_MS - 1);
    expect(await repo.findByRef(organizationScope(a), stored.publicId, justBefore)).to.not.equal(null);
    expect(await codeOf(repo.add(claim(a, justBefore), justBefore, poolTx()))).to.equal('customDomainExists');
    const expiry = at(PENDING_LIFETIME_MS);
    expect(await repo.findByRef(organizationScope(a), stored.publicId, expiry)).to.equal(null);
    expect(await repo.list(organizationScope(a), expiry)).to.deep.equal([]);
    const again = await repo.add(claim(a, expiry), expiry, poolTx());
    expect((await repo.list(organizationScope(a), expiry)).map((d) => d.publicId)).to.deep.equal([again.publicId]);
  });

  it("add drops the expired entry and inserts the new one in the caller's tx: a rolled-back add leaves the expired entry, not half of it", async () => {
    const { a, claim, repo } = await setup();
    const runner = (await testServer()).container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const expired = await repo.add(claim(a), T0, poolTx());
    const expiry = at(PENDING_LIFETIME_MS);
    const { database } = await testServer();
    const stored = async () =>
      (await database.sql.query<{ public_id: string }>(sql`SELECT public_id FROM custom_domains WHERE hostname = ${expired.hostname}`)).map(
        (row) => row.public_id,
      );
    const failed = await runner
      .run(async (tx) => {
        await repo.add(claim(a, expiry), expiry, tx);
        throw new Error('the rest of the change failed');
      })
      .catch((error: Error) => error.message);
    expect(failed).to.equal('the rest of the change failed');
    expect(await stored()).to.deep.equal([expired.publicId]);
    const again = await runner.run((tx) => repo.add(claim(a, expiry), expiry, tx));
    expect(await stored()).to.deep.equal([again.publicId]);
  });

  it('the database holds a hostname for one organization: the second verified save answers domainAlreadyClaimed', async () => {
    const { a, b, hostname, claim, repo } = await setup();
    const first = await repo.add(claim(a), T0, poolTx());
    const second = await repo.add(claim(b), T0, poolTx());
    first.verify(T0);
    second.verify(T0);
    await repo.save(first, poolTx());
    // No application check in between: the partial unique index alone refuses it.
    expect(await codeOf(repo.save(second, poolTx()))).to.equal('domainAlreadyClaimed');
    expect(await repo.claimedElsewhere(hostname, b)).to.equal(true);
    expect(await repo.claimedElsewhere(hostname, a)).to.equal(false);
    expect((await repo.findByRef(organizationScope(b), second.publicId, T0))!.status).to.equal('pending');
  });

  it('a stale version answers conflict', async () => {
    const { a, claim, repo } = await setup();
    const stored = await repo.add(claim(a), T0, poolTx());
    const copy = (await repo.findByRef(organizationScope(a), stored.publicId, T0))!;
    stored.verify(T0);
    await repo.save(stored, poolTx());
    copy.verify(T0);
    expect(await codeOf(repo.save(copy, poolTx()))).to.equal('conflict');
  });

  it('the active-host directory answers active entries only', async () => {
    const { a, hostname, claim, repo, directory } = await setup();
    const stored = await repo.add(claim(a), T0, poolTx());
    stored.verify(T0);
    await repo.save(stored, poolTx());
    expect(await directory.find(hostname)).to.equal(null);
    stored.activate(T0);
    await repo.save(stored, poolTx());
    expect(await directory.find(hostname)).to.deep.equal({
      hostname,
      organizationId: a,
      customerId: null,
      kind: 'whiteLabel',
      statusPage: null,
    });
    await repo.remove(stored, poolTx());
    expect(await directory.find(hostname)).to.equal(null);
  });

  it('purgeExpired deletes pending entries 7 days old and keeps the rest', async () => {
    const { a, b, claim, repo } = await setup();
    const expired = await repo.add(claim(a), T0, poolTx());
    const held = await repo.add(claim(b), T0, poolTx());
    held.verify(T0);
    await repo.save(held, poolTx());
    const fresh = await repo.add(claim(a, at(1)), at(1), poolTx()).catch(() => null); // one entry per organization: a's is taken
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
