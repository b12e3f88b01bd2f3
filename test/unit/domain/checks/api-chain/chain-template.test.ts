import { expect } from 'chai';
import { placeholdersIn, redactorFor, REDACTED, substitute } from '../../../../../src/domain/checks/api-chain/chain-template';

describe('API chains: placeholders and redaction', () => {
  const values = { variables: new Map([['token', 'a b/c']]), secrets: { password: 'p@ss"w0rd' } };

  it('tells variables from secrets', () => {
    expect(placeholdersIn('Bearer {{token}} {{ secrets.password }}')).to.deep.equal([
      { kind: 'variable', name: 'token' },
      { kind: 'secret', name: 'password' },
    ]);
  });

  it('substitutes variables and secrets, encoding them where asked, and leaves unknown names as written', () => {
    expect(substitute('Bearer {{token}}', values)).to.equal('Bearer a b/c');
    expect(substitute('/items?q={{token}}', values, encodeURIComponent)).to.equal('/items?q=a%20b%2Fc');
    expect(substitute('{"p":"{{secrets.password}}"}', values)).to.equal('{"p":"p@ss"w0rd"}');
    expect(substitute('{{other}} {{secrets.none}}', values)).to.equal('{{other}} {{secrets.none}}');
  });

  it('redacts a secret as sent, JSON-escaped and URL-encoded', () => {
    const redact = redactorFor(values.secrets);
    expect(redact('raw p@ss"w0rd')).to.equal(`raw ${REDACTED}`);
    expect(redact('{"p":"p@ss\\"w0rd"}')).to.equal(`{"p":"${REDACTED}"}`);
    expect(redact('/login?p=p%40ss%22w0rd')).to.equal(`/login?p=${REDACTED}`);
    expect(redactorFor({})('nothing to hide')).to.equal('nothing to hide');
  });
});
