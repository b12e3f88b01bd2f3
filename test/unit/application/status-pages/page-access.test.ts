import { expect } from 'chai';
import type { PasswordLockout } from '../../../../src/application/status-pages/sign-in-to-status-page';
import { aStatusPagesWorld } from '../../../support/builders/status-pages';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';

/** The private page "Acme" (password "open-sesame" unless told otherwise) over m-7 ("Shop"), and a sign-in that records lockouts. */
async function aPrivatePageWorld(options: { password?: string | null; ipAllowlist?: string[]; retryAfter?: number } = {}) {
  const world = aStatusPagesWorld({ retryAfter: options.retryAfter }).monitor(7, 'Shop');
  const page = await world.aPage('acme', {
    ipAllowlist: options.ipAllowlist ?? [],
    password: options.password === undefined ? 'open-sesame' : options.password,
  });
  const lockouts: PasswordLockout[] = [];
  const attempt = (password: string, ip: string | undefined = '198.51.100.7') =>
    world.signIn.execute({ slug: 'acme' }, { password, ip }, (l) => lockouts.push(l));
  return { ...world, page, lockouts, attempt };
}

describe("Status pages: a visitor signs in to a private page's password (use case)", () => {
  it('answers the access token for the right password, by slug or by the page id a custom domain uses', async () => {
    const { attempt, signIn, page } = await aPrivatePageWorld();
    expect(await attempt('open-sesame')).to.deep.equal({ slug: 'acme', token: `ok:${page.accessSecret}` });
    expect(await signIn.execute({ pageId: page.id }, { password: 'open-sesame', ip: undefined })).to.deep.equal({
      slug: 'acme',
      token: `ok:${page.accessSecret}`,
    });
  });

  it('answers statusPagePasswordInvalid for a wrong password and statusPageNotFound for a page that does not exist', async () => {
    const { attempt, signIn } = await aPrivatePageWorld();
    expect(await codeOf(attempt('open-sesame!'))).to.equal('statusPagePasswordInvalid');
    expect(await codeOf(signIn.execute({ slug: 'nope' }, { password: 'x', ip: undefined }))).to.equal('statusPageNotFound');
    expect(await codeOf(signIn.execute({ pageId: 999 }, { password: 'x', ip: undefined }))).to.equal('statusPageNotFound');
  });

  it("refuses an address outside the page's allowlist before counting or checking anything", async () => {
    const { attempt, limiter } = await aPrivatePageWorld({ ipAllowlist: ['203.0.113.0/24'] });
    expect(await codeOf(attempt('open-sesame', '198.51.100.7'))).to.equal('forbidden');
    expect(await codeOf(attempt('open-sesame', undefined))).to.equal('forbidden');
    expect(limiter.counts.size).to.equal(0);
    expect((await attempt('open-sesame', '203.0.113.9')).token).to.match(/^ok:/);
  });

  it('needs no password on a page without one: an empty token, no attempt counted', async () => {
    const { attempt, limiter } = await aPrivatePageWorld({ password: null });
    expect(await attempt('anything')).to.deep.equal({ slug: 'acme', token: '' });
    expect(limiter.counts.size).to.equal(0);
  });

  it('locks one client out after five attempts a minute, right or wrong, reporting the lock-out; others may still try', async () => {
    const { attempt, lockouts, page } = await aPrivatePageWorld();
    for (let i = 0; i < 5; i += 1) await codeOf(attempt(`guess-${i}`));
    await expectAppErrorAsync(attempt('open-sesame'), 'rateLimited', { retryAfter: 42 });
    expect(lockouts).to.deep.equal([
      { pageId: page.id, ip: '198.51.100.7', limit: 'status-page-password-client-minute', retryAfterSeconds: 42 },
    ]);
    expect((await attempt('open-sesame', '198.51.100.8')).token).to.match(/^ok:/);
  });

  it('locks the page for everyone after 60 attempts a minute from any addresses', async () => {
    const { attempt, lockouts } = await aPrivatePageWorld();
    for (let i = 0; i < 60; i += 1) await codeOf(attempt('guess', `198.51.100.${i}`));
    expect(await codeOf(attempt('open-sesame', '203.0.113.1'))).to.equal('rateLimited');
    expect(lockouts.map((l) => l.limit)).to.deep.equal(['status-page-password-page-minute']);
  });

  it('never asks to retry in less than a second', async () => {
    const { attempt } = await aPrivatePageWorld({ retryAfter: 0 });
    for (let i = 0; i < 5; i += 1) await codeOf(attempt('guess'));
    await expectAppErrorAsync(attempt('guess'), 'rateLimited', { retryAfter: 1 });
  });
});
