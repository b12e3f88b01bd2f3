import { expect } from 'chai';
import { Subscriber } from '../../../../src/domain/status-pages/subscriber';
import { PageIncident } from '../../../../src/domain/status-pages/page-incident';
import { codeOf, expectAppError } from '../../../support/expect-app-error';

const NOW = new Date('2026-06-01T12:00:00Z');
const LATER = new Date('2026-06-01T12:30:00Z');
const email = (address: string, componentKeys: string[] = []) =>
  Subscriber.email({ pageId: 1, organizationId: 1, address, componentKeys, token: 't' }, NOW);
const webhook = (componentKeys: string[] = []) =>
  Subscriber.webhook(
    { pageId: 1, organizationId: 1, address: 'https://hooks.example/status', secret: 'whsec_1', componentKeys, token: 't' },
    NOW,
  );
const anIncident = (title = 'Slow checkout') =>
  PageIncident.open({ publicId: 'i-1', pageId: 1, incidentId: null, incidentPublicId: null, title, componentKeys: ['monitor:7'] }, NOW);

describe('Status page subscribers', () => {
  it('takes an e-mail subscriber unconfirmed, its address in lower case, without a webhook secret', () => {
    const s = email('Ada.Lovelace@Example.COM');
    expect(s).to.include({
      channel: 'email',
      address: 'ada.lovelace@example.com',
      confirmed: false,
      webhookSecret: null,
      confirmedAt: null,
    });
  });

  it('refuses what is not an e-mail address', () => {
    for (const address of ['ada', 'ada@example', '@example.com', 'ada@@example.com', 'a da@example.com', '<ada@example.com>', ''])
      expectAppError(() => email(address), 'validationFailed', { field: 'email' });
    expect(codeOf(() => email('a+b@mail.example.co'))).to.equal(undefined);
  });

  it('confirms a webhook at once, with its secret and the address as given', () => {
    const s = webhook();
    expect(s).to.include({ channel: 'webhook', address: 'https://hooks.example/status', webhookSecret: 'whsec_1', confirmed: true });
    expect(s.confirmedAt?.toISOString()).to.equal(NOW.toISOString());
  });

  it('confirms once: a second click keeps the first confirmation time', () => {
    const s = email('ada@example.com');
    s.confirm(NOW);
    s.confirm(LATER);
    expect(s.confirmed).to.equal(true);
    expect(s.confirmedAt?.toISOString()).to.equal(NOW.toISOString());
  });

  it('tells nothing to an unconfirmed subscriber, not even page-wide news', () => {
    expect(email('ada@example.com').follows([])).to.equal(false);
    expect(email('ada@example.com', ['monitor:7']).follows(['monitor:7'])).to.equal(false);
  });

  it('tells a confirmed subscriber of page-wide news and of news about a component it follows, not of others', () => {
    const all = webhook();
    const shop = webhook(['monitor:7', 'customerDomain:3']);
    expect([all.follows([]), all.follows(['monitor:8'])]).to.deep.equal([true, true]);
    expect(shop.follows([])).to.equal(true);
    expect(shop.follows(['monitor:8', 'customerDomain:3'])).to.equal(true);
    expect(shop.follows(['monitor:8'])).to.equal(false);
    expect(shop.follows(['customerDomain:7']), 'same id, another type').to.equal(false);
  });
});

describe('Page incidents', () => {
  it('opens investigating, with no updates yet, created and updated now, not resolved', () => {
    const incident = anIncident();
    expect(incident).to.include({ id: 0, status: 'investigating', isOpen: true, resolvedAt: null });
    expect(incident.updates).to.deep.equal([]);
    expect(incident.updatedAt.toISOString()).to.equal(NOW.toISOString());
  });

  it('needs a title', () => {
    for (const title of ['', '   ']) expectAppError(() => anIncident(title), 'validationFailed', { field: 'title' });
  });

  it('answers each update unstored (id 0), moves the status and the update time, and keeps updates in order', () => {
    const incident = anIncident();
    const update = incident.post('identified', 'Payment provider', LATER);
    expect(update).to.deep.equal({ id: 0, status: 'identified', message: 'Payment provider', createdAt: LATER });
    incident.post('monitoring', 'Fix deployed', LATER);
    expect(incident.updates.map((u) => u.message)).to.deep.equal(['Payment provider', 'Fix deployed']);
    expect(incident).to.include({ status: 'monitoring', isOpen: true });
    expect(incident.updatedAt.toISOString()).to.equal(LATER.toISOString());
  });

  it('refuses an empty message and leaves the incident as it was', () => {
    const incident = anIncident();
    incident.post('resolved', 'Fixed', LATER);
    expectAppError(() => incident.post('investigating', ' \n ', NOW), 'validationFailed', { field: 'message' });
    expect(incident).to.include({ status: 'resolved', isOpen: false });
    expect(incident.updates).to.have.length(1);
    expect(incident.resolvedAt?.toISOString()).to.equal(LATER.toISOString());
  });
});
