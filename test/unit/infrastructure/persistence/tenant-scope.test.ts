import { expect } from 'chai';
import {
  containsPattern,
  customerScopeSql,
  refCondition,
  refFilter,
  scopeSql,
} from '../../../../src/infrastructure/persistence/tenant-scope';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const ORG = { organizationId: 7, customerId: null };
const CUSTOMER = { organizationId: 7, customerId: 42 };

describe('the persistence kit: tenant scope and record references', () => {
  describe('refFilter', () => {
    it('reads a positive integer as the legacy id and a uuid as the public id (lower-cased), trimmed alike', () => {
      expect(refFilter('12')).to.deep.equal({ id: 12 });
      expect(refFilter(12)).to.deep.equal({ id: 12 });
      expect(refFilter(' 12 ')).to.deep.equal({ id: 12 });
      expect(refFilter('0F8FAD5B-D9CB-469F-A165-70867728950E')).to.deep.equal({ publicId: '0f8fad5b-d9cb-469f-a165-70867728950e' });
      expect(refFilter(' 0f8fad5b-d9cb-469f-a165-70867728950e')).to.deep.equal({ publicId: '0f8fad5b-d9cb-469f-a165-70867728950e' });
    });

    it('names no record for zero, a leading zero, an integer past PostgreSQL int, or anything else', () => {
      for (const ref of ['0', '012', '2147483648', '-1', '1.5', 'abc', '', '0f8fad5b-d9cb-469f-a165']) {
        expect(refFilter(ref), ref).to.equal(null);
      }
      expect(refFilter('2147483647')).to.deep.equal({ id: 2147483647 });
    });
  });

  it('refCondition matches the id or the public id column of the alias, as a fragment with its value', () => {
    const byId = refCondition('5', 'm');
    expect({ text: byId?.text, values: byId?.values }).to.deep.equal({ text: 'm.id = $1', values: [5] });
    const byPublicId = refCondition('0f8fad5b-d9cb-469f-a165-70867728950e', 'm');
    expect({ text: byPublicId?.text, values: byPublicId?.values }).to.deep.equal({
      text: 'm.public_id = $1',
      values: ['0f8fad5b-d9cb-469f-a165-70867728950e'],
    });
    expect(refCondition('nope', 'm')).to.equal(null);
  });

  it('scopeSql and customerScopeSql bind the organization and the customer (null: every customer)', () => {
    const scoped = scopeSql(CUSTOMER, 'w');
    expect({ text: scoped.text, values: scoped.values }).to.deep.equal({
      text: 'w.organization_id = $1 AND (CAST($2 AS int) IS NULL OR w.customer_id = $3)',
      values: [7, 42, 42],
    });
    expect(scopeSql(ORG, 'w').values).to.deep.equal([7, null, null]);
    expect(customerScopeSql(CUSTOMER, 'c').text).to.equal('c.organization_id = $1 AND (CAST($2 AS int) IS NULL OR c.id = $3)');
  });

  it('a scope fragment numbers its values in place inside the statement it joins', () => {
    const statement = sql`SELECT 1 FROM monitors m WHERE m.kind = ${'http'} AND ${scopeSql(CUSTOMER, 'm')} AND ${refCondition('9', 'm')}`;
    expect(statement.text).to.equal(
      'SELECT 1 FROM monitors m WHERE m.kind = $1 AND m.organization_id = $2 AND (CAST($3 AS int) IS NULL OR m.customer_id = $4) AND m.id = $5',
    );
    expect(statement.values).to.deep.equal(['http', 7, 42, 42, 9]);
  });

  it('containsPattern escapes the ILIKE pattern characters of the term', () => {
    expect(containsPattern('50%_off\\')).to.equal('%50\\%\\_off\\\\%');
  });
});
