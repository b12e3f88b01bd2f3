import { expect } from 'chai';
import { ChangeCursor } from '../../../../src/domain/scheduling/change-cursor';

describe('ChangeCursor', () => {
  it('reads again from where it stood until a round has settled, and takes each number once', () => {
    const cursor = new ChangeCursor(10_000);
    cursor.reset(5);
    expect([cursor.take(7), cursor.take(7)]).to.deep.equal([true, false]);
    cursor.settle(0, 7);
    expect(cursor.from, 'not settled yet: number 6 may still commit').to.equal(5);
    expect(cursor.take(6)).to.equal(true);
    cursor.settle(9_999, 8);
    expect(cursor.from).to.equal(5);
    cursor.settle(10_000, 9);
    expect(cursor.from, 'the first round has settled').to.equal(7);
    expect(cursor.take(7), 'numbers under the floor are forgotten (never read again)').to.equal(true);
  });

  it('starts over on reset', () => {
    const cursor = new ChangeCursor(1_000);
    cursor.take(3);
    cursor.settle(0, 3);
    cursor.reset(10);
    expect(cursor.from).to.equal(10);
    expect(cursor.take(3)).to.equal(true);
  });
});
