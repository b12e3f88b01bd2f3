import { expect } from 'chai';
import { StatusPage, readableTextOn } from '../../../../src/domain/status-pages/status-page';
import { dayBar, monitorState, worstState } from '../../../../src/domain/status-pages/component-status';
import { PageIncident } from '../../../../src/domain/status-pages/page-incident';
import { codeOf } from '../../../support/expect-app-error';

const NOW = new Date('2026-06-01T12:00:00Z');
const aPage = (overrides: Partial<Parameters<typeof StatusPage.create>[0]> = {}) =>
  StatusPage.create(
    {
      publicId: 'p-1',
      organizationId: 1,
      customerId: null,
      title: 'Acme',
      slug: 'acme',
      description: null,
      logo: null,
      brandColor: '#1f6feb',
      groups: [{ name: 'Web', components: [{ type: 'monitor', id: 7, name: null }] }],
      showResponseTimes: false,
      footer: null,
      ipAllowlist: [],
      passwordHash: null,
      accessSecret: 's-1',
      ...overrides,
    },
    NOW,
  );
const DAY = 86_400;

describe('Status page rules', () => {
  it('refuses a slug with uppercase letters, an edge hyphen or over 64 characters', () => {
    expect(codeOf(() => aPage({ slug: 'Acme' }))).to.equal('validationFailed');
    expect(codeOf(() => aPage({ slug: '-acme' }))).to.equal('validationFailed');
    expect(codeOf(() => aPage({ slug: 'a'.repeat(65) }))).to.equal('validationFailed');
    expect(aPage({ slug: 'acme-2' }).slug).to.equal('acme-2');
  });

  it('refuses a component twice on one page, even in two groups', () => {
    const twice = [
      { name: 'A', components: [{ type: 'monitor' as const, id: 7, name: null }] },
      { name: 'B', components: [{ type: 'monitor' as const, id: 7, name: 'again' }] },
    ];
    expect(codeOf(() => aPage({ groups: twice }))).to.equal('validationFailed');
  });

  it('admits only allowlisted addresses when it has an allowlist, IPv4-mapped IPv6 included', () => {
    const page = aPage({ ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] });
    expect(page.admitsAddress('203.0.113.9')).to.equal(true);
    expect(page.admitsAddress('::ffff:203.0.113.9')).to.equal(true);
    expect(page.admitsAddress('2001:db8::1')).to.equal(true);
    expect(page.admitsAddress('198.51.100.1')).to.equal(false);
    expect(page.admitsAddress(undefined)).to.equal(false);
    expect(aPage().admitsAddress(undefined)).to.equal(true);
    expect(codeOf(() => aPage({ ipAllowlist: ['not-an-ip'] }))).to.equal('validationFailed');
  });

  it('rotates the access secret with the password, so earlier visitors sign in again', () => {
    const page = aPage({ passwordHash: 'h1' });
    page.setPassword('h2', 's-2', NOW);
    expect(page).to.include({ passwordHash: 'h2', accessSecret: 's-2', isPrivate: true });
    page.setPassword(null, 's-3', NOW);
    expect(page.isPrivate).to.equal(false);
  });

  it('picks black or white header text for contrast', () => {
    expect(readableTextOn('#ffffff')).to.equal('#000000');
    expect(readableTextOn('#ffd33d')).to.equal('#000000');
    expect(readableTextOn('#1f2937')).to.equal('#ffffff');
    expect(readableTextOn('#1f6feb')).to.equal('#ffffff');
  });
});

describe('Component states and daily bars', () => {
  it('shows a monitor down when any location last failed, maintenance over anything, unknown without results', () => {
    expect(monitorState(['up', 'down'], false)).to.equal('down');
    expect(monitorState(['up', 'degraded'], false)).to.equal('degraded');
    expect(monitorState(['up'], false)).to.equal('operational');
    expect(monitorState(['down'], true)).to.equal('maintenance');
    expect(monitorState([], false)).to.equal('unknown');
    expect(worstState(['operational', 'maintenance', 'unknown'])).to.equal('maintenance');
    expect(worstState(['operational', 'down', 'degraded'])).to.equal('down');
  });

  it('never shows a day without enough results as up: it is unknown', () => {
    const bar = dayBar('2026-05-30', {
      upSeconds: DAY * 0.3,
      degradedSeconds: 0,
      downSeconds: 0,
      expectedSeconds: DAY,
      maintenanceSeconds: 0,
    });
    expect(bar).to.deep.equal({ date: '2026-05-30', state: 'unknown', uptimePercent: 100 });
    expect(
      dayBar('2026-05-30', { upSeconds: 0, degradedSeconds: 0, downSeconds: 0, expectedSeconds: DAY, maintenanceSeconds: 0 }),
    ).to.deep.equal({ date: '2026-05-30', state: 'unknown', uptimePercent: null });
  });

  it('marks a day with maintenance apart, but down time wins', () => {
    const base = { upSeconds: DAY, degradedSeconds: 0, downSeconds: 0, expectedSeconds: DAY, maintenanceSeconds: 3600 };
    expect(dayBar('d', base).state).to.equal('maintenance');
    expect(dayBar('d', { ...base, upSeconds: DAY - 60, downSeconds: 60 })).to.deep.equal({
      date: 'd',
      state: 'down',
      uptimePercent: 99.93,
    });
    expect(dayBar('d', { ...base, maintenanceSeconds: 0 }).state).to.equal('up');
    expect(dayBar('d', { ...base, maintenanceSeconds: 0, upSeconds: DAY - 60, degradedSeconds: 60 }).state).to.equal('degraded');
  });
});

describe('Page incidents', () => {
  it('moves through its updates; resolved closes it and a later update reopens it', () => {
    const incident = PageIncident.open(
      { publicId: 'i-1', pageId: 1, incidentId: null, incidentPublicId: null, title: 'Slow checkout', componentKeys: [] },
      NOW,
    );
    incident.post('investigating', 'Looking', NOW);
    incident.post('resolved', 'Fixed', new Date(NOW.getTime() + 60_000));
    expect(incident).to.include({ status: 'resolved', isOpen: false });
    expect(incident.resolvedAt?.toISOString()).to.equal('2026-06-01T12:01:00.000Z');
    incident.post('identified', 'It came back', new Date(NOW.getTime() + 120_000));
    expect(incident).to.include({ status: 'identified', isOpen: true, resolvedAt: null });
    expect(incident.updates.map((u) => u.status)).to.deep.equal(['investigating', 'resolved', 'identified']);
    expect(codeOf(() => incident.post('monitoring', '  ', NOW))).to.equal('validationFailed');
  });
});
