import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { RegisterAgent } from '../../../../src/application/agent-access/register-agent';
import { ClaimCredentialIssuer } from '../../../../src/application/agent-access/claim-credentials';
import { AccessTokenMinter } from '../../../../src/application/agent-access/mint-access-token';
import { PollClaim } from '../../../../src/application/agent-access/poll-claim';
import { RevokeToken } from '../../../../src/application/agent-access/revoke-token';
import { IssueAccessToken } from '../../../../src/application/agent-access/issue-access-token';
import type { ExchangeAssertion } from '../../../../src/application/agent-access/exchange-assertion';
import { FakeSettings, plainSecrets } from '../../../support/fakes/identity-fakes';
import { FakeRateLimiter, sequentialIds } from '../../../support/fakes/shared-fakes';
import {
  FakeAccessTokens,
  FakeRegistrations,
  fakeAssertions,
  fakeEndpoints,
  fakeUserCodes,
} from '../../../support/fakes/agent-access-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';

function setup() {
  const clock = new ManualClock();
  const registrations = new FakeRegistrations();
  const tokens = new FakeAccessTokens();
  const settings = new FakeSettings();
  const limiter = new FakeRateLimiter();
  const credentials = new ClaimCredentialIssuer(plainSecrets, fakeUserCodes, fakeEndpoints);
  const minter = new AccessTokenMinter(tokens, fakeAssertions, plainSecrets, sequentialIds(), immediateTransactions);
  const invalidated: number[] = [];
  return {
    clock,
    registrations,
    tokens,
    settings,
    invalidated,
    register: new RegisterAgent(registrations, fakeAssertions, credentials, settings, limiter, fakeEndpoints, clock, immediateTransactions),
    poll: new PollClaim(registrations, minter, plainSecrets, clock, immediateTransactions),
    revoke: new RevokeToken(
      tokens,
      registrations,
      fakeAssertions,
      plainSecrets,
      { invalidate: () => invalidated.push(1) },
      clock,
      immediateTransactions,
    ),
    issue: new IssueAccessToken(
      {
        execute: async () => {
          throw new Error('not this grant');
        },
      } as unknown as ExchangeAssertion,
      new PollClaim(registrations, minter, plainSecrets, clock, immediateTransactions),
      limiter,
    ),
  };
}

describe('agent access use cases', () => {
  it('RegisterAgent stores only digests of the claim token and user code, and signs an assertion for the claim window', async () => {
    const { register, registrations, clock } = setup();
    const agent = await register.execute({ type: 'anonymous' }, '10.0.0.1');
    if (agent.type !== 'anonymous') throw new Error('anonymous expected');
    const stored = registrations.rows.get(agent.registration_id)!;
    expect(stored.claimTokenHash).to.equal(`h(${agent.claim_token})`);
    expect(stored.userCodeHash).to.equal(`h(${fakeUserCodes.normalize(agent.user_code)})`);
    expect(agent.identity_assertion).to.equal(`assertion:${agent.registration_id}:${clock.now().getTime() + 86_400_000}`);
  });

  it('RegisterAgent limits each caller to 30 a minute and checks the service_auth switch', async () => {
    const { register, settings } = setup();
    for (let i = 0; i < 30; i++) await register.execute({ type: 'anonymous' }, '10.0.0.2');
    const limited = await expectAppErrorAsync(register.execute({ type: 'anonymous' }, '10.0.0.2'), 'rateLimited');
    expect(limited.details).to.deep.equal({ retryAfter: 42 });
    await register.execute({ type: 'anonymous' }, '10.0.0.3');
    settings.value.serviceAuthEnabled = false;
    expect(await codeOf(register.execute({ type: 'service_auth' }, '10.0.0.3'))).to.equal('service_auth_not_enabled');
    expect(await codeOf(register.execute({ type: 'other' }, '10.0.0.3'))).to.equal('invalid_request');
  });

  it('PollClaim answers slow_down when it loses a race with a concurrent poll', async () => {
    const { register, poll, registrations } = setup();
    const agent = await register.execute({ type: 'service_auth' }, '10.0.0.4');
    registrations.versions.concurrentWriteOnNextSave = true;
    expect(await codeOf(poll.execute(agent.claim_token))).to.equal('slow_down');
  });

  it('PollClaim mints one token with the grant once the registration is approved', async () => {
    const { register, poll, registrations, tokens, clock } = setup();
    const agent = await register.execute({ type: 'service_auth' }, '10.0.0.5');
    registrations.rows
      .get(agent.registration_id)!
      .confirm({ userId: 'u1', email: 'a@b.example', scope: { organizationId: 1, customerId: null } }, clock.now());
    const minted = await poll.execute(agent.claim_token);
    expect(minted.scopes).to.deep.equal(['api.read']);
    expect(minted.identityAssertion).to.match(/^assertion:reg_/);
    const [stored] = [...tokens.rows.values()];
    expect(stored).to.include({ tokenHash: `h(${minted.accessToken})`, userId: 'u1', organizationId: 1 });
    clock.advance(5_000);
    expect(await codeOf(poll.execute(agent.claim_token))).to.equal('expired_token');
  });

  it('IssueAccessToken dispatches on grant_type', async () => {
    const { issue } = setup();
    expect(await codeOf(issue.execute({}, 'k'))).to.equal('invalid_request');
    expect(await codeOf(issue.execute({ grant_type: 'password' }, 'k'))).to.equal('unsupported_grant_type');
    expect(await codeOf(issue.execute({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }, 'k'))).to.equal('invalid_request');
    expect(await codeOf(issue.execute({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', claim_token: 'clm_x' }, 'k'))).to.equal(
      'invalid_grant',
    );
  });

  it('RevokeToken: unknown tokens change nothing; an assertion revokes its registration and its tokens', async () => {
    const { register, revoke, registrations, tokens, invalidated, clock } = setup();
    await revoke.execute('wsma_unknown');
    await revoke.execute(undefined);
    const agent = await register.execute({ type: 'anonymous' }, '10.0.0.6');
    if (agent.type !== 'anonymous') throw new Error('anonymous expected');
    const registration = registrations.rows.get(agent.registration_id)!;
    await new AccessTokenMinter(tokens, fakeAssertions, plainSecrets, sequentialIds(), immediateTransactions).mint(
      registration,
      ['tools.public'],
      clock.now(),
    );
    await revoke.execute(agent.identity_assertion);
    expect(registration.state(clock.now())).to.equal('revoked');
    expect([...tokens.rows.values()].every((t) => t.revokedAt !== null)).to.equal(true);
    expect(invalidated.length).to.be.greaterThan(0);
  });
});
