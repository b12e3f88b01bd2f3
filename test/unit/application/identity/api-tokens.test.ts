import { anIdentityWorld } from '../../../support/builders/identity';
import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const admin = () => anActor().build();

describe('ApiTokens use case', () => {
  const setup = () => {
    const world = anIdentityWorld({ customers: [{ id: 5, organizationId: 1 }] });
    return { ...world, useCase: world.apiTokens };
  };

  it('stores only the digest of a wsm_ secret and returns the secret once', async () => {
    const { useCase, tokens } = setup();
    const { record, token } = await useCase.mint(admin(), 'organization', { name: 'ci' });
    expect(token.startsWith('wsm_')).to.equal(true);
    expect(tokens.rows.get(record.id)!.tokenHash).to.equal(`h(${token})`);
    expect(JSON.stringify(tokens.rows.get(record.id))).not.to.include(`"${token}"`);
  });

  it('needs a step-up within five minutes when the caller has two-step verification', async () => {
    const { useCase, clock } = setup();
    const verifiedAt = clock.now();
    const actor = anActor().withTwoStep(verifiedAt).build();
    await useCase.mint(actor, 'organization', { name: 'a' });
    clock.advance(5 * 60_000);
    expect(await codeOf(useCase.mint(actor, 'organization', { name: 'b' }))).to.equal('mfa_step_up_required');
    expect(await codeOf(useCase.mint(anActor().withTwoStep().build(), 'organization', { name: 'c' }))).to.equal('mfa_step_up_required');
  });

  it('refuses minting by tokens and agents', async () => {
    const { useCase } = setup();
    expect(await codeOf(useCase.mint(anActor().viaApiToken().build(), 'organization', { name: 'x' }))).to.equal('apiTokenCannotMintTokens');
    expect(await codeOf(useCase.mint(anActor().asAgent().build(), 'customer', { name: 'x', customerId: 5 }))).to.equal(
      'apiTokenCannotMintTokens',
    );
  });

  it('scopes customer tokens to a customer of the organization', async () => {
    const { useCase } = setup();
    expect(await codeOf(useCase.mint(admin(), 'customer', { name: 'x', customerId: 6 }))).to.equal('customerNotFound');
    const { record } = await useCase.mint(admin(), 'customer', { name: 'x', customerId: 5 });
    expect(record.customerId).to.equal(5);
  });
});
