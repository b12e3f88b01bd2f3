import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { NotifyAdministrators } from '../../../../src/application/identity/notify-administrators';
import type { IdentityEvent } from '../../../../src/domain/identity/events';
import { ManualClock } from '../../../support/manual-clock';

describe('notifying administrators (the identity context publishes a security notice)', () => {
  const at = new Date('2026-12-14T10:00:00.000Z');
  const setup = (administrators: { userId: string; email: string }[]) => {
    const published: IdentityEvent[][] = [];
    const notifier = new NotifyAdministrators(
      { activeAdministrators: async (organizationId) => (organizationId === 7 ? administrators : []) },
      { publish: async (events) => void published.push([...events]) },
      new ManualClock(at),
    );
    return { notifier, published };
  };

  it('publishes one notice naming the organization’s active administrators, with its subject and body', async () => {
    const { notifier, published } = setup([{ userId: 'u-1', email: 'boss@example.com' }]);
    await notifier.notifyAdministrators(
      7,
      { subject: 'Account deletion withdrawn', body: 'Ann withdrew the request.' },
      new FakeTransaction(),
    );
    expect(published).to.deep.equal([
      [
        {
          kind: 'identity.securityNotice',
          version: 1,
          organizationId: 7,
          occurredAt: at,
          subject: 'Account deletion withdrawn',
          body: 'Ann withdrew the request.',
          administrators: [{ userId: 'u-1', email: 'boss@example.com' }],
        },
      ],
    ]);
  });

  it('publishes nothing when the organization has no active administrator', async () => {
    const { notifier, published } = setup([]);
    await notifier.notifyAdministrators(7, { subject: 'x', body: 'y' }, new FakeTransaction());
    expect(published).to.deep.equal([]);
  });
});
