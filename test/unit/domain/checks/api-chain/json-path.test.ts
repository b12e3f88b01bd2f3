import { expect } from 'chai';
import { parseJsonPath, readJsonPath } from '../../../../../src/domain/checks/api-chain/json-path';

const read = (document: unknown, path: string) => {
  const parsed = parseJsonPath(path);
  if (!parsed.ok) throw new Error(parsed.message);
  return readJsonPath(document, parsed.segments);
};

describe('API chains: the JSON path subset', () => {
  const doc = { data: { token: 'abc', 'user-id': 7, items: [{ id: 'a' }, { id: 'b' }] }, "it's": true };

  it('reads properties by dot and by quoted bracket, indexes from either end, and the root', () => {
    expect(read(doc, '$.data.token')).to.equal('abc');
    expect(read(doc, "$['data']['user-id']")).to.equal(7);
    expect(read(doc, '$["it\'s"]')).to.equal(true);
    expect(read(doc, '$.data.items[1].id')).to.equal('b');
    expect(read(doc, '$.data.items[-1].id')).to.equal('b');
    expect(read(doc, '$')).to.deep.equal(doc);
  });

  it('answers undefined for a missing step: absent property, index out of range, property of a scalar, index of an object', () => {
    expect(read(doc, '$.data.missing')).to.equal(undefined);
    expect(read(doc, '$.data.items[5].id')).to.equal(undefined);
    expect(read(doc, '$.data.token.length')).to.equal(undefined);
    expect(read(doc, '$.data[0]')).to.equal(undefined);
    expect(read(doc, '$.constructor')).to.equal(undefined);
  });

  it('refuses what it does not support, saying what it does', () => {
    expect(parseJsonPath('data.token')).to.deep.equal({ ok: false, message: 'a JSON path starts with $' });
    const wildcard = parseJsonPath('$.items[*]');
    expect(wildcard.ok).to.equal(false);
    expect(wildcard.ok ? '' : wildcard.message).to.contain("supported: $, .name, ['name'], [index]");
    expect(parseJsonPath('$..id').ok).to.equal(false);
    expect(parseJsonPath(`$${'.a'.repeat(300)}`).ok).to.equal(false);
  });
});
