import { expect } from 'chai';
import { CreateStatusPage } from '../../../../src/application/status-pages/create-status-page';
import { SignInToStatusPage, type PasswordLockout } from '../../../../src/application/status-pages/sign-in-to-status-page';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeRateLimiter, sequentialIds, immediateTransactions } from '../../../support/fakes/shared-fakes';
import { fakeAccessTokens, FakeComponentCatalog, FakeStatusPages } from '../../../support/fakes/status-pages-fakes';

const hasher = { hash: async (p: string) => `hashed:${p}`, verify: async (h: string, p: string) => h === `hashed:${p}` };

async function setup(options: { password?: string | null; ipAllowlist?: string[]; retryAfter?: number } = {}) {
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const pages = new FakeStatusPages();
  const catalog = new FakeComponentCatalog().add(1, { type: 'monitor', id: 7, publicId: 'm-7', customerId: 3, name: 'Shop' });
  const page = await new CreateStatusPage(pages, catalog, hasher, sequentialIds(), clock, immediateTransactions).execute(
    anActor().build(),
    {
      title: 'Acme',
      slug: 'acme',
      description: null,
      logo: null,
      brandColor: '#000000',
      showResponseTimes: false,
      footer: null,
      ipAllowlist: options.ipAllowlist ?? [],
      customerId: null,
      password: options.password === undefined ? 'open-sesame' : options.password,
      groups: [{ name: 'All', components: [{ type: 'monitor', id: 'm-7' }] }],
    },
  );
  const limiter = new FakeRateLimiter(options.retryAfter);
  const lockouts: PasswordLockout[] = [];
  const signIn = new SignInToStatusPage(pages, hasher, fakeAccessTokens, clock, limiter);
  const attempt = (password: string, ip: string | undefined = '198.51.100.7') =>
    signIn.execute({ slug: 'acme' }, { password, ip }, (l) => lockouts.push(l));
  return { page, limiter, lockouts, signIn, attempt };
}

describe("Status pages: a visitor signs in to a private page's password (use case)", () => {
  it('answers the access token for the right password, by slug or by the page id a custom domain uses', async () => {
    const { attempt, signIn, page } = await setup();
    expect(await attempt('open-sesame')).to.deep.equal({ slug: 'acme', token: `ok:${page.accessSecret}` });
    expect(await signIn.execute({ pageId: page.id }, { password: 'open-sesame', ip: undefined })).to.deep.equal({
      slug: 'acme',
      token: `ok:${page.accessSecret}`,
    });
  });

  it('answers statusPagePasswordInvalid for a wrong password and statusPageNotFound for a page that does not exist', async () => {
    const { attempt, signIn } = await setup();
    expect(await codeOf(attempt('open-sesame!'))).to.equal('statusPagePasswordInvalid');
    expect(await codeOf(signIn.execute({ slug: 'nope' }, { password: 'x', ip: undefined }))).to.equal('statusPageNotFound');
    expect(await codeOf(signIn.execute({ pageId: 999 }, { password: 'x', ip: undefined }))).to.equal('statusPageNotFound');
  });

  it("refuses an address outside the page's allowlist before counting or checking anything", async () => {
    const { attempt, limiter } = await setup({ ipAllowlist: ['203.0.113.0/24'] });
    expect(await codeOf(attempt('open-sesame', '198.51.100.7'))).to.equal('forbidden');
    expect(await codeOf(attempt('open-sesame', undefined))).to.equal('forbidden');
    expect(limiter.counts.size).to.equal(0);
    expect((await attempt('open-sesame', '203.0.113.9')).token).to.match(/^ok:/);
  });

  it('needs no password on a page without one: an empty token, no attempt counted', async () => {
    const { attempt, limiter } = await setup({ password: null });
    expect(await attempt('anything')).to.deep.equal({ slug: 'acme', token: '' });
    expect(limiter.counts.size).to.equal(0);
  });

  it('locks one client out after five attempts a minute, right or wrong, reporting the lock-out; others may still try', async () => {
    const { attempt, lockouts, page } = await setup();
    for (let i = 0; i < 5; i += 1) await codeOf(attempt(`guess-${i}`));
    await expectAppErrorAsync(attempt('open-sesame'), 'rateLimited', { retryAfter: 42 });
    expect(lockouts).to.deep.equal([
      { pageId: page.id, ip: '198.51.100.7', limit: 'status-page-password-client-minute', retryAfterSeconds: 42 },
    ]);
    expect((await attempt('open-sesame', '198.51.100.8')).token).to.match(/^ok:/);
  });

  it('locks the page for everyone after 60 attempts a minute from any addresses', async () => {
    const { attempt, lockouts } = await setup();
    for (let i = 0; i < 60; i += 1) await codeOf(attempt('guess', `198.51.100.${i}`));
    expect(await codeOf(attempt('open-sesame', '203.0.113.1'))).to.equal('rateLimited');
    expect(lockouts.map((l) => l.limit)).to.deep.equal(['status-page-password-page-minute']);
  });

  it('never asks to retry in less than a second', async () => {
    const { attempt } = await setup({ retryAfter: 0 });
    for (let i = 0; i < 5; i += 1) await codeOf(attempt('guess'));
    await expectAppErrorAsync(attempt('guess'), 'rateLimited', { retryAfter: 1 });
  });
});
