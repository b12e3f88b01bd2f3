import { expect } from 'chai';
import { vatNumberOf } from '../../../../src/domain/identity/vat-id';

describe('VAT numbers as VIES takes them', () => {
  it('reads the member state from the prefix, dropping spaces, dots and dashes', () => {
    expect(vatNumberOf('de 123.456-789', null)).to.deep.equal({ countryCode: 'DE', number: '123456789' });
    expect(vatNumberOf('ATU12345678', 'DE')).to.deep.equal({ countryCode: 'AT', number: 'U12345678' });
  });

  it('falls back to countryCode without a prefix, and names Greece EL', () => {
    expect(vatNumberOf('999999999', 'gr')).to.deep.equal({ countryCode: 'EL', number: '999999999' });
    expect(vatNumberOf('GR999999999', null)).to.deep.equal({ countryCode: 'EL', number: '999999999' });
  });

  it('finds no member state for a non-EU prefix or country, or a bare prefix', () => {
    expect(vatNumberOf('123456789', 'US')).to.equal(null);
    expect(vatNumberOf('123456789', null)).to.equal(null);
    expect(vatNumberOf('DE', null)).to.equal(null);
  });
});
