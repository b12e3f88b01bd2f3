import { expect } from 'chai';
import { acceptedAlgorithms } from '../../../../src/infrastructure/identity/openid-relying-party';

describe('The signing algorithms accepted for a provider’s tokens', () => {
  it('are the asymmetric ones the provider advertises', () => {
    expect(acceptedAlgorithms({ id_token_signing_alg_values_supported: ['ES256', 'RS256', 'PS384', 'EdDSA'] })).to.have.members([
      'ES256',
      'RS256',
      'PS384',
      'EdDSA',
    ]);
  });

  it('never include none nor an HMAC, whatever the provider advertises', () => {
    const advertised = ['none', 'HS256', 'HS384', 'HS512', 'RS256'];
    expect(acceptedAlgorithms({ id_token_signing_alg_values_supported: advertised })).to.deep.equal(['RS256']);
    expect(acceptedAlgorithms({ id_token_signing_alg_values_supported: ['HS256', 'none'] })).to.deep.equal([]);
  });

  it('are RS256 when the provider advertises none', () => {
    expect(acceptedAlgorithms({})).to.deep.equal(['RS256']);
    expect(acceptedAlgorithms({ id_token_signing_alg_values_supported: [] })).to.deep.equal(['RS256']);
  });
});
