import { expect } from 'chai';
import { bind, empty, join, raw, sql } from '../../../../src/infrastructure/persistence/sql';

describe('SQL statements of the persistence kit', () => {
  it('sends a tagged statement with native placeholders, each value bound where it is used', () => {
    const ids = [3, 4];
    const bound = bind(sql`SELECT id FROM customers WHERE organization_id = ${7} AND id = ANY(${ids}::int[])`);
    expect(bound.text).to.equal('SELECT id FROM customers WHERE organization_id = $1 AND id = ANY($2::int[])');
    expect(bound.values).to.deep.equal([7, [3, 4]]);
    expect(bound.options).to.deep.equal({});
  });

  it('composes fragments: their values come along, numbered in place; join lists, empty stands for nothing', () => {
    const scope = sql`c.organization_id = ${7} AND c.customer_id = ${9}`;
    const search = (term: string | null) => (term === null ? empty : sql`AND c.name ILIKE ${`%${term}%`}`);
    const order = join([raw('c.name'), raw('c.id')], ', ');
    const statement = sql`SELECT c.id FROM customers c WHERE ${scope} ${search('acme')} ORDER BY ${order} LIMIT ${50}`;
    const bound = bind(statement, { prepare: true });
    expect(bound.text).to.equal(
      'SELECT c.id FROM customers c WHERE c.organization_id = $1 AND c.customer_id = $2 AND c.name ILIKE $3 ORDER BY c.name, c.id LIMIT $4',
    );
    expect(bound.values).to.deep.equal([7, 9, '%acme%', 50]);
    expect(bound.options).to.deep.equal({ prepare: true });
    expect(bind(sql`SELECT 1 WHERE ${scope} ${search(null)}`).text).to.equal(
      'SELECT 1 WHERE c.organization_id = $1 AND c.customer_id = $2 ',
    );
  });

  it('a value is never text of the statement, whatever it holds', () => {
    const hostile = "x'; DROP TABLE customers; --";
    const bound = bind(sql`SELECT id FROM customers WHERE name = ${hostile}`);
    expect(bound.text).to.equal('SELECT id FROM customers WHERE name = $1');
    expect(bound.values).to.deep.equal([hostile]);
  });

  it('takes no statement as text: the older form (text with ? placeholders and a parameter list) is refused', () => {
    // @ts-expect-error -- a runner's statement is a sql value; text with a parameter list does not compile
    expect(() => bind('UPDATE monitors SET name = ? WHERE id = ?', ['a', 1])).to.throw(TypeError, /sql tag/);
    // a ? in a statement is the statement's own text (a jsonb operator), never a placeholder
    const bound = bind(sql`SELECT 1 FROM monitors WHERE tags ? ${'x'} AND labels ?| ${['a']}`);
    expect(bound.text).to.equal('SELECT 1 FROM monitors WHERE tags ? $1 AND labels ?| $2');
  });
});
