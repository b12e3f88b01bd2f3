import { expect } from 'chai';
import { shapedObject } from '../../../src/interfaces/cli/shaped';

describe('objects built on a shared shape (shapedObject)', () => {
  it('holds the keys in their order with their values, as assigning them one by one would', () => {
    const made = shapedObject(['b', 'a', 'c'], [1, { x: [2] }, null]);
    expect(Object.keys(made)).to.deep.equal(['b', 'a', 'c']);
    expect(made).to.deep.equal({ b: 1, a: { x: [2] }, c: null });
    const again = shapedObject(['b', 'a', 'c'], [3, 4, undefined]);
    expect(Object.entries(again)).to.deep.equal([
      ['b', 3],
      ['a', 4],
      ['c', undefined],
    ]);
    expect(made.b).to.equal(1);
    expect(shapedObject(['b', 'a'], [5, 6])).to.deep.equal({ b: 5, a: 6 });
    expect(shapedObject([], [])).to.deep.equal({});
  });

  it('keeps a field named __proto__ a field', () => {
    const made = shapedObject(['__proto__', 'a'], [{ polluted: true }, 1]);
    expect(Object.getPrototypeOf(made)).to.equal(Object.prototype);
    expect(Object.keys(made)).to.deep.equal(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});
