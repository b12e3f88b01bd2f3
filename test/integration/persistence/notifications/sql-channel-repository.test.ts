import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { SqlNotificationChannelRepository } from '../../../../src/infrastructure/notifications/sql-notification-channel.repository';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { codeOf } from '../../../support/expect-app-error';
import { testServer } from '../../../support/test-server';
import { standalone } from '../../../support/unit-of-work';

const LATER = new Date('2026-12-01T00:00:00Z');

/**
 * The channel repository on the sql kit: a save names the version it read (the second writer of
 * one version is told `conflict`), and writes what the channel's own changes touch, never the
 * health the delivery ledger keeps beside it.
 */
describe('SqlNotificationChannelRepository (notification_channels)', () => {
  it("answers conflict to the second save of one version, and leaves the ledger's health columns as they are", async () => {
    const org = await anOrganization('channel-sql');
    const { database } = await testServer();
    const channels = new SqlNotificationChannelRepository(standalone(database.sql));
    const scope = organizationScope(org.user.organizationId);
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'ops', type: 'webhook', config: { url: 'https://hooks.channel-sql-fixture.com/ops' } },
    });
    expect(created.status).to.equal(201);
    const [first, second] = [
      await channels.findByRef(scope, created.body.publicId),
      await channels.findByRef(scope, created.body.publicId),
    ];
    // the ledger records failures after the channel was read
    await database.sql.query(
      sql`UPDATE notification_channels SET consecutive_failures = 3, last_failure_reason = 'HTTP 500' WHERE id = ${first!.id}`,
    );

    first!.update({ name: 'first writer' }, LATER);
    await channels.save(first!, poolTx());
    second!.update({ name: 'second writer' }, LATER);
    expect(await codeOf(channels.save(second!, poolTx()))).to.equal('conflict');

    const stored = await channels.findByRef(scope, created.body.publicId);
    expect(stored).to.deep.include({ name: 'first writer', version: 2, consecutiveFailures: 3, lastFailureReason: 'HTTP 500' });
    expect(stored!.config).to.deep.equal(first!.config);
  });
});
