import { expect } from 'chai';
import { logoType } from '../../../../src/domain/reports/report-logo';

describe('report logo', () => {
  it('tells PNG and JPEG by their signatures and nothing else', () => {
    expect(logoType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).to.equal('image/png');
    expect(logoType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).to.equal('image/jpeg');
    expect(logoType(new TextEncoder().encode('GIF89a....'))).to.equal(null);
    expect(logoType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).to.equal(null);
    expect(logoType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).to.equal(null);
  });
});
