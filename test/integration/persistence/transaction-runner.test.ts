import { expect } from 'chai';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { testServer } from '../../support/test-server';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { NotificationChannel } from '../../../src/domain/notifications/notification-channel';
import { ORM } from '../../../src/main/tokens';

/**
 * Nested transactions (savepoints) of the MikroORM runner. The check engine records a chunk of
 * results in one transaction and each result that may change an incident in a nested one: a nested
 * transaction that started from a copy of everything the chunk had loaded so far made a storm's
 * chunk cost grow with the square of its size.
 */
describe('the MikroORM transaction runner, nested', () => {
  it('starts a nested transaction with an empty unit of work; what it loads and changes reaches the outer one and commits with it', async () => {
    const app = await testServer();
    const orm = app.container.get<MikroORM>(ORM);
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    const org = await anOrganization('nested-tx');
    const created = await Promise.all(['a', 'b'].map(async (name) => (await api('POST', '/api/notification-channels', {
      token: org.token, body: { name, type: 'webhook', config: { url: `https://hooks.nested-fixture.com/${name}` } },
    })).body));
    const organizationId = org.user.organizationId;
    const managed = () => orm.em.getContext().getUnitOfWork().getIdentityMap().values().length;

    const seen = await RequestContext.create(orm.em, () => tx.run(async () => {
      const outer = await orm.em.getContext().findOneOrFail(NotificationChannel, { publicId: created[0].publicId, organizationId });
      const inOuter = managed();
      const inNested = await tx.run(async () => {
        const before = managed();
        const nested = await orm.em.getContext().findOneOrFail(NotificationChannel, { publicId: created[1].publicId, organizationId });
        nested.name = 'renamed in the nested transaction';
        return before;
      });
      outer.name = 'renamed in the outer transaction';
      return { inOuter, inNested, afterNested: managed() };
    }));

    expect(seen).to.deep.equal({ inOuter: 1, inNested: 0, afterNested: 2 });
    const rows = await app.database.sql.query<{ public_id: string; name: string }>(
      'SELECT public_id::text, name FROM notification_channels WHERE public_id = ANY(?::uuid[])', [created.map((c) => c.publicId)]);
    const names = new Map(rows.map((row) => [row.public_id, row.name]));
    expect(created.map((c) => names.get(c.publicId))).to.deep.equal(['renamed in the outer transaction', 'renamed in the nested transaction']);
  });
});
