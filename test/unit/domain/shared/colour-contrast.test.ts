import { expect } from 'chai';
import { contrastRatio, readableTextOn, relativeLuminance } from '../../../../src/domain/shared/colour-contrast';
import { accentFor } from '../../../../console/src/screens/branding/colors';

/** WCAG 2 arithmetic, written once: the status page's header, its console preview and the console's accent ask it. */
describe('colour contrast (WCAG 2)', () => {
  it('gives relative luminance and contrast ratios as WCAG defines them', () => {
    expect(relativeLuminance('#000000')).to.equal(0);
    expect(relativeLuminance('#ffffff')).to.equal(1);
    expect(contrastRatio('#000000', '#ffffff')).to.equal(21);
    expect(contrastRatio('#ffffff', '#000000')).to.equal(21);
    expect(contrastRatio('#336699', '#336699')).to.equal(1);
    // #767676 on white is the classic 4.54:1 (the lightest grey that passes AA for text).
    expect(contrastRatio('#767676', '#ffffff')).to.be.closeTo(4.54, 0.01);
  });

  it('picks black or white text by the larger ratio, white on anything that is not #rrggbb', () => {
    expect(readableTextOn('#000000')).to.equal('#ffffff');
    expect(readableTextOn('#ffcc00')).to.equal('#000000');
    expect(readableTextOn('#1d4ed8')).to.equal('#ffffff');
    expect(readableTextOn('red')).to.equal('#ffffff');
  });

  it("makes the console's accent readable on the page (4.5:1) with the domain's text colour on it", () => {
    for (const [color, dark] of [
      ['#ffee00', false],
      ['#1a1a1a', true],
      ['#3b82f6', false],
    ] as const) {
      const { accent, text } = accentFor(color, dark);
      expect(contrastRatio(accent, dark ? '#0f1318' : '#f6f7f9')).to.be.at.least(4.5);
      expect(text).to.equal(readableTextOn(accent));
    }
  });
});
