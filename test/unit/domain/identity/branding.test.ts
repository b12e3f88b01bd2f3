import { expect } from 'chai';
import { AppError } from '../../../../src/domain/shared/app-error';
import { Organization } from '../../../../src/domain/identity/organization';
import { MAX_BRAND_LOGO_BYTES } from '../../../../src/domain/identity/branding';

const NOW = new Date('2027-02-10T09:00:00Z');
const LATER = new Date('2027-02-10T10:00:00Z');
const anOrganization = () => new Organization({ publicId: '7f0c1a52-1b7a-4d1e-9a55-0b5f1d2e3c4a', name: 'Acme', now: NOW });
const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 7).toString('base64')}`;

function refusal(work: () => void): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('organization branding (white-label look)', () => {
  it('keeps an accent colour #rrggbb in lower case, and a logo data URL', () => {
    const organization = anOrganization();
    organization.updateBranding({ accentColor: '#0A7D5A', logo: png(100) }, LATER);
    expect(organization.accentColor).to.equal('#0a7d5a');
    expect(organization.logo).to.equal(png(100));
    expect(organization.updatedAt).to.equal(LATER);
  });

  it('leaves what is not sent, and null removes', () => {
    const organization = anOrganization();
    organization.updateBranding({ accentColor: '#112233', logo: png(10) }, NOW);
    organization.updateBranding({ logo: null }, LATER);
    expect(organization.accentColor).to.equal('#112233');
    expect(organization.logo).to.equal(null);
    organization.updateBranding({ accentColor: null }, LATER);
    expect(organization.accentColor).to.equal(null);
  });

  for (const color of ['red', '#fff', '#12345g', '112233', '#1122334', ' #112233']) {
    it(`refuses the accent colour ${JSON.stringify(color)} naming the field (validationFailed), changing nothing`, () => {
      const organization = anOrganization();
      const error = refusal(() => organization.updateBranding({ accentColor: color, logo: png(5) }, LATER));
      expect(error.code).to.equal('validationFailed');
      expect(error.details).to.deep.equal({ issues: [{ path: ['accentColor'], message: 'Must be #rrggbb' }] });
      expect(organization.accentColor).to.equal(null);
      expect(organization.logo).to.equal(null);
      expect(organization.updatedAt).to.equal(NOW);
    });
  }

  it('refuses a logo that is not an image data URL, or larger than 32 KiB decoded', () => {
    const organization = anOrganization();
    for (const logo of [
      'https://example.com/logo.png',
      'data:text/html;base64,PGI+',
      'data:image/png;base64,abc',
      png(MAX_BRAND_LOGO_BYTES + 1),
    ]) {
      const error = refusal(() => organization.updateBranding({ logo }, LATER));
      expect(error.code, logo.slice(0, 40)).to.equal('validationFailed');
      expect((error.details.issues as Array<{ path: string[] }>)[0]!.path).to.deep.equal(['logo']);
    }
    organization.updateBranding({ logo: png(MAX_BRAND_LOGO_BYTES) }, LATER);
    expect(organization.logo).to.equal(png(MAX_BRAND_LOGO_BYTES));
  });
});
