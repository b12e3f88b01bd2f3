import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  componentKey,
  MAX_COMPONENTS,
  pageHeading,
  readableTextOn,
  StatusPage,
  type ComponentGroup,
} from '../../../../src/domain/status-pages/status-page';
import { codeOf, expectAppError } from '../../../support/expect-app-error';

const NOW = new Date('2026-06-01T12:00:00Z');
const LATER = new Date('2026-06-01T13:00:00Z');
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
      groups: [
        { name: 'Web', components: [{ type: 'monitor', id: 7, name: null }] },
        { name: 'Assets', components: [{ type: 'customerDomain', id: 7, name: 'acme.example' }] },
      ],
      showResponseTimes: false,
      footer: null,
      ipAllowlist: [],
      passwordHash: null,
      accessSecret: 's-1',
      ...overrides,
    },
    NOW,
  );
const manyMonitors = (n: number): ComponentGroup[] => [
  { name: 'All', components: Array.from({ length: n }, (_, i) => ({ type: 'monitor' as const, id: i + 1, name: null })) },
];

describe('Status page definition', () => {
  it('starts at version 1, created and updated now, with its components in group order', () => {
    const page = aPage();
    expect(page).to.include({ id: 0, version: 1, isPrivate: false });
    expect([page.createdAt, page.updatedAt].map((d) => d.toISOString())).to.deep.equal([NOW.toISOString(), NOW.toISOString()]);
    expect(page.components.map(componentKey)).to.deep.equal(['monitor:7', 'customerDomain:7']);
  });

  it('accepts slugs of one to 64 lowercase letters, digits and inner hyphens', () => {
    for (const slug of ['a', '7', 'a-b', 'status-2026', 'a'.repeat(64), 'a--b'])
      expect(
        codeOf(() => aPage({ slug })),
        slug,
      ).to.equal(undefined);
    for (const slug of ['', 'acme-', 'ac me', 'acmé', 'ac_me', 'ac.me', 'a/b', 'a'.repeat(65)])
      expectAppError(() => aPage({ slug }), 'validationFailed', { field: 'slug' });
  });

  it('takes the brand colour as #rrggbb only', () => {
    expect(aPage({ brandColor: '#ABCdef' }).brandColor).to.equal('#ABCdef');
    for (const brandColor of ['#fff', '1f6feb', '#1f6fez', '#1f6feb00', 'red'])
      expectAppError(() => aPage({ brandColor }), 'validationFailed', { field: 'brandColor' });
  });

  it('takes IP addresses and CIDRs of both families in the allowlist, and nothing else', () => {
    expect(aPage({ ipAllowlist: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'] }).isPrivate).to.equal(true);
    for (const bad of ['10.0.0.0/33', '999.1.1.1', 'example.com'])
      expectAppError(() => aPage({ ipAllowlist: ['10.0.0.0/8', bad] }), 'validationFailed', { field: 'ipAllowlist' });
  });

  it('holds at most 200 components over all groups (a monitor and a domain with one id are two)', () => {
    expect(MAX_COMPONENTS).to.equal(200);
    expect(aPage({ groups: manyMonitors(200) }).components).to.have.length(200);
    expectAppError(() => aPage({ groups: manyMonitors(201) }), 'validationFailed', { field: 'groups' });
    const domain: ComponentGroup = { name: 'Domains', components: [{ type: 'customerDomain', id: 1, name: null }] };
    expect(aPage({ groups: [...manyMonitors(199), domain] }).components).to.have.length(200);
    expectAppError(() => aPage({ groups: [...manyMonitors(200), domain] }), 'validationFailed', { field: 'groups' });
  });

  it('keeps the rules on a change, which leaves the page as it was when refused', () => {
    const page = aPage();
    page.change({ title: 'Acme Cloud', slug: 'acme-cloud', footer: 'Hi' }, LATER);
    expect(page).to.include({ title: 'Acme Cloud', slug: 'acme-cloud', footer: 'Hi', brandColor: '#1f6feb' });
    expect(page.updatedAt.toISOString()).to.equal(LATER.toISOString());
    expectAppError(() => page.change({ slug: 'Bad Slug', title: 'Never' }, NOW), 'validationFailed', { field: 'slug' });
    expectAppError(() => page.change({ groups: manyMonitors(1).concat(manyMonitors(1)) }, NOW), 'validationFailed', { field: 'groups' });
    expect(page).to.include({ title: 'Acme Cloud', slug: 'acme-cloud' });
    expect(page.updatedAt.toISOString()).to.equal(LATER.toISOString());
  });

  it('is private with a password or with an allowlist, and public with neither', () => {
    const page = aPage();
    page.change({ ipAllowlist: ['203.0.113.0/24'] }, LATER);
    expect(page.isPrivate).to.equal(true);
    page.change({ ipAllowlist: [] }, LATER);
    expect(page.isPrivate).to.equal(false);
    page.setPassword('hash', 's-2', LATER);
    expect(page.isPrivate).to.equal(true);
    expect(page.updatedAt.toISOString()).to.equal(LATER.toISOString());
  });

  it('refuses a malformed visitor address on an allowlisted page, and admits one on a page without a list', () => {
    const listed = aPage({ ipAllowlist: ['203.0.113.0/24'] });
    expect(listed.admitsAddress('not-an-ip')).to.equal(false);
    expect(listed.admitsAddress('')).to.equal(false);
    expect(listed.admitsAddress('203.0.114.1')).to.equal(false);
    expect(aPage({ ipAllowlist: ['203.0.113.7'] }).admitsAddress('203.0.113.7')).to.equal(true);
    expect(aPage().admitsAddress('not-an-ip')).to.equal(true);
  });

  it('adds " status" to a heading only when the title does not already end in it', () => {
    expect(pageHeading('Acme')).to.equal('Acme status');
    expect(pageHeading('  Acme Status  ')).to.equal('Acme Status');
    expect(pageHeading('Acme STATUS')).to.equal('Acme STATUS');
    expect(pageHeading('Statuspage of Acme')).to.equal('Statuspage of Acme status');
    expect(pageHeading('Acme statuses')).to.equal('Acme statuses status');
  });

  it('puts white text on dark colours and black on light ones', () => {
    expect(readableTextOn('#000000')).to.equal('#ffffff');
    expect(readableTextOn('#FFFFFF')).to.equal('#000000');
    expect(readableTextOn('#808080')).to.equal('#000000');
    expect(readableTextOn('#0000ff')).to.equal('#ffffff');
    expect(readableTextOn('#00ff00')).to.equal('#000000');
  });

  it('reads anything but #rrggbb as a dark colour (white text), as the console preview does while it is typed', () => {
    expect(readableTextOn('#fff')).to.equal('#ffffff');
    expect(readableTextOn('')).to.equal('#ffffff');
    expect(readableTextOn('#ffffffff')).to.equal('#ffffff');
  });

  it('is the one function the console preview asks (no second copy of the rule)', () => {
    const draft = readFileSync(path.resolve(__dirname, '../../../../console/src/screens/status-pages/draft.ts'), 'utf8');
    expect(draft).to.include("from '../../../../src/domain/status-pages/readable-text'");
    expect(draft).not.to.match(/luminance|0\.2126|0\.03928/);
  });
});
