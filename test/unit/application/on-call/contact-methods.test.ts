import { expect } from 'chai';
import type { PushSubscription } from '../../../../src/domain/on-call/web-push';
import { pageRoutes } from '../../../../src/domain/incident-management/contact-method';
import type { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import {
  AddContactMethod,
  ListContactMethods,
  RemoveContactMethod,
  UpdateContactMethod,
  type ContactMethodDeps,
} from '../../../../src/application/on-call/manage-contact-methods';
import { ManualClock } from '../../../support/manual-clock';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeTargetPolicy, immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { anOnCallWorld, type OnCallWorld } from '../../../support/builders/on-call';
import { FakeContactMethods, FakeImPeople, FakePagingContacts } from '../../../support/fakes/on-call-fakes';

const ORG = 1;
const BOBS_PHONE = '6d1f0c9e-0d5e-4c57-9d0e-1c2b3a4d5e6f';
const ANNS_PHONE = '7e2a1d0f-1e6f-4d68-8e1f-2d3c4b5e6f70';
const device = (id: string, userId: string): PushSubscription => ({
  id,
  organizationId: ORG,
  userId,
  endpoint: 'https://push.example.com/x',
  p256dh: 'k',
  auth: 'a',
  label: null,
  createdAt: new Date(0),
});
const DEVICES = [device(BOBS_PHONE, 'bob'), device(ANNS_PHONE, 'ann')];
const MINUTE = 60_000;

describe('escalation pages fan out to contact methods', () => {
  let world: OnCallWorld;
  let { clock, deliveries, methods } = {} as OnCallWorld;
  let run: RunDueEscalations;
  const t0 = new Date('2026-12-27T10:00:00Z');
  const method = (id: string, type: 'sms' | 'webhook' | 'email', address: string, enabled = true) =>
    methods.put({
      id,
      organizationId: ORG,
      userId: 'ann',
      type,
      address,
      enabled,
      secret: type === 'webhook' ? 'whsec_ann' : null,
      createdAt: t0,
      updatedAt: t0,
    });
  const pages = () => deliveries.rows.map((r) => [r.message.recipient, r.message.dedupKey, r.message.data?.level]);

  beforeEach(async () => {
    world = anOnCallWorld({ now: t0, organizationId: ORG });
    ({ clock, deliveries, methods, job: run } = world);
    await world.policy([{ delayMinutes: 5, targets: [{ type: 'user', id: 'ann' }] }], 1);
    world.contact(['ann', 'Ann']).open('inc-1', 'Shop down');
  });

  it('pages level 1 on the account e-mail, the webhook and the SMS number, each once however often the job runs', async () => {
    await method('w1', 'webhook', 'https://hooks.example.com/ann');
    await method('s1', 'sms', '+14155550100');
    await method('s2', 'sms', '+14155550199', false);
    await run.execute();
    await run.execute();
    expect(pages()).to.deep.equal([
      [{ type: 'email', address: 'ann@people.example' }, 'im-escalation:inc-1:0:ann', 1],
      [{ type: 'webhook', url: 'https://hooks.example.com/ann', secret: 'whsec_ann' }, 'im-escalation:inc-1:0:ann:w1', 1],
      [{ type: 'sms', phone: '+14155550100' }, 'im-escalation:inc-1:0:ann:s1', 1],
    ]);
  });

  it("pages every method again at the next step (the repeat), with that step's keys", async () => {
    await method('account-email', 'email', '', false);
    await method('s1', 'sms', '+14155550100');
    await run.execute();
    clock.advance(5 * MINUTE);
    await run.execute();
    expect(pages().map(([, key]) => key)).to.deep.equal(['im-escalation:inc-1:0:ann:s1', 'im-escalation:inc-1:1:ann:s1']);
  });
});

describe('managing contact methods', () => {
  let deps: ContactMethodDeps;
  let methods: FakeContactMethods;
  let policy: FakeTargetPolicy;
  const admin = anActor().with({ userId: 'ann', role: 'admin' }).build();
  const responder = anActor().with({ userId: 'bob', role: 'responder' }).build();

  beforeEach(() => {
    methods = new FakeContactMethods();
    policy = new FakeTargetPolicy();
    deps = {
      methods,
      people: new FakeImPeople().add(ORG, 'ann').add(ORG, 'bob').add(2, 'zed'),
      contacts: new FakePagingContacts().add(ORG, 'ann', 'Ann').add(ORG, 'bob', 'Bob'),
      policy,
      ids: sequentialIds(),
      tokens: { generate: (prefix: string) => `${prefix}generated`, hash: (token: string) => `hash:${token}` },
      clock: new ManualClock(),
      pushSubscriptions: {
        find: async (organizationId, id) => DEVICES.find((d) => d.organizationId === organizationId && d.id === id) ?? null,
      },
      transactions: immediateTransactions,
    };
  });

  it('lists the account e-mail first, on by default, then the methods added', async () => {
    await new AddContactMethod(deps).execute(responder, { type: 'sms', address: '+14155550100' });
    const listed = await new ListContactMethods(deps).execute(responder);
    expect(listed.map((m) => [m.id === 'account-email' ? m.id : m.type, m.address, m.enabled])).to.deep.equal([
      ['account-email', 'bob@people.example', true],
      ['sms', '+14155550100', true],
    ]);
  });

  it('switches the account e-mail off and, when its setting is removed, back on', async () => {
    await new UpdateContactMethod(deps).execute(responder, 'account-email', { enabled: false });
    expect((await new ListContactMethods(deps).execute(responder))[0]!.enabled).to.equal(false);
    await expectAppErrorAsync(
      new UpdateContactMethod(deps).execute(responder, 'account-email', { address: 'x@y.example' }),
      'validationFailed',
    );
    await new RemoveContactMethod(deps).execute(responder, 'account-email');
    expect((await new ListContactMethods(deps).execute(responder))[0]!.enabled).to.equal(true);
  });

  it('vets webhook hosts through the target policy', async () => {
    await expectAppErrorAsync(
      new AddContactMethod(deps).execute(responder, { type: 'webhook', address: 'http://10.0.0.5/hook' }),
      'imContactMethodTargetRefused',
      { reason: 'nonPublicAddress' },
    );
    const added = await new AddContactMethod(deps).execute(responder, { type: 'webhook', address: 'https://hooks.example.com/bob' });
    expect(added.secret).to.equal('whsec_generated');
    expect(policy.vetted).to.deep.equal(['10.0.0.5', 'hooks.example.com']);
    await expectAppErrorAsync(
      new UpdateContactMethod(deps).execute(responder, added.id, { address: 'https://intranet.corp/x' }),
      'imContactMethodTargetRefused',
    );
  });

  it('takes a web-push method only for a device its owner subscribed, and pages that device', async () => {
    await expectAppErrorAsync(
      new AddContactMethod(deps).execute(responder, { type: 'web-push', address: 'not-a-uuid' }),
      'validationFailed',
      { field: 'address', reason: 'notAPushSubscriptionId' },
    );
    await expectAppErrorAsync(
      new AddContactMethod(deps).execute(responder, { type: 'web-push', address: ANNS_PHONE }),
      'validationFailed',
      { field: 'address', reason: 'notAPushSubscriptionOfTheUser' },
    );
    const added = await new AddContactMethod(deps).execute(responder, { type: 'web-push', address: BOBS_PHONE });
    expect(added).to.deep.include({ type: 'web-push', address: BOBS_PHONE, secret: null });
    expect(pageRoutes('bob@example.com', [added])).to.deep.equal([
      { methodId: 'account-email', recipient: { type: 'email', address: 'bob@example.com' } },
      { methodId: added.id, recipient: { type: 'web-push', subscriptionId: BOBS_PHONE } },
    ]);
  });

  it("lets an organization admin manage another user's methods, and nobody else", async () => {
    const added = await new AddContactMethod(deps).execute(admin, { userId: 'bob', type: 'sms', address: '+14155550100' });
    expect(added.userId).to.equal('bob');
    await expectAppErrorAsync(new ListContactMethods(deps).execute(responder, 'ann'), 'imContactMethodForbidden');
    const annMethod = await new AddContactMethod(deps).execute(admin, { type: 'sms', address: '+14155550111' });
    await expectAppErrorAsync(
      new UpdateContactMethod(deps).execute(responder, annMethod.id, { enabled: false }),
      'imContactMethodForbidden',
    );
    await expectAppErrorAsync(new ListContactMethods(deps).execute(admin, 'zed'), 'userNotFound');
    await expectAppErrorAsync(new RemoveContactMethod(deps).execute(admin, 'no-such-id'), 'imContactMethodNotFound');
  });
});
