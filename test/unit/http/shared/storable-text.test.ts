import { expect } from 'chai';
import { findUnstorableText } from '../../../../src/interfaces/http/shared/storable-text';

describe('findUnstorableText', () => {
  it('passes ordinary text, surrogate pairs and non-string values', () => {
    expect(findUnstorableText({ a: 'plain', b: ['🚀', 'é', '\ud83d\ude80'], c: 1, d: null, e: true })).to.equal(null);
  });

  it('finds NUL and lone surrogates in values and in property names, with their path', () => {
    expect(findUnstorableText({ a: [{ b: 'x\u0000' }] })?.path).to.deep.equal(['a', 0, 'b']);
    expect(findUnstorableText(['ok', '\ud800'])?.path).to.deep.equal([1]);
    expect(findUnstorableText({ x: '\udc00 then' })?.path).to.deep.equal(['x']);
    expect(findUnstorableText({ x: 'ends high \ud83d' })?.path).to.deep.equal(['x']);
    expect(findUnstorableText({ ok: { ['k\u0000']: 1 } })?.path).to.deep.equal(['ok', 'k\u0000']);
    expect(findUnstorableText('\u0000')?.message).to.match(/NUL/);
  });

  it('walks a body nested far deeper than the call stack allows recursion to go', () => {
    const depth = 200_000;
    let nested: unknown = ['\u0000'];
    for (let i = 0; i < depth; i++) nested = [nested];
    expect(findUnstorableText(nested)?.path).to.have.length(depth + 1);
  });
});
