import { expect } from 'chai';
import { describeStep, parseScenario, SCENARIO_LIMITS, type ScenarioParse } from '../../../../src/domain/checks/browser-scenario';
import { formatArgument, splitArguments } from '../../../../src/domain/checks/scenario-arguments';

const steps = (script: string) => {
  const parsed = parseScenario(script);
  if (!parsed.ok) throw new Error(`expected a valid script, got line ${parsed.line}: ${parsed.message}`);
  return parsed.steps;
};
const failure = (script: string) => {
  const parsed: ScenarioParse = parseScenario(script);
  if (parsed.ok) throw new Error('expected the script to be refused');
  return parsed;
};

describe('browser scenario language', () => {
  it('parses every step, with its 1-based line', () => {
    expect(
      steps(
        [
          'goto /login',
          'fill #email "ann@shop.example"',
          'fill input[name="password"] "s3cret"',
          'click button[type=submit]',
          'press Enter',
          'waitFor .dashboard',
          'expectText "Welcome back"',
          'expectNoText "Error"',
          'expectTitle "Dashboard"',
          'expectUrl "/dashboard"',
          'wait 250',
          'goto https://shop.acme.com/cart?x=1',
        ].join('\n'),
      ),
    ).to.deep.equal([
      { kind: 'goto', line: 1, target: '/login' },
      { kind: 'fill', line: 2, selector: '#email', text: 'ann@shop.example' },
      { kind: 'fill', line: 3, selector: 'input[name="password"]', text: 's3cret' },
      { kind: 'click', line: 4, selector: 'button[type=submit]' },
      { kind: 'press', line: 5, key: 'Enter' },
      { kind: 'waitFor', line: 6, selector: '.dashboard' },
      { kind: 'expectText', line: 7, text: 'Welcome back' },
      { kind: 'expectNoText', line: 8, text: 'Error' },
      { kind: 'expectTitle', line: 9, text: 'Dashboard' },
      { kind: 'expectUrl', line: 10, text: '/dashboard' },
      { kind: 'wait', line: 11, ms: 250 },
      { kind: 'goto', line: 12, target: 'https://shop.acme.com/cart?x=1' },
    ]);
  });

  it('skips blank lines and # comments, trims, accepts CRLF, and reads step names case-insensitively', () => {
    expect(steps('# log in\r\n\r\n   CLICK   "#go"  \r\n\twaitfor .done\n# end')).to.deep.equal([
      { kind: 'click', line: 3, selector: '#go' },
      { kind: 'waitFor', line: 4, selector: '.done' },
    ]);
    expect(steps('# only comments')).to.deep.equal([]);
  });

  it('reads quoted arguments with \\" and \\\\ escapes, keeps other backslashes, and allows empty fills', () => {
    expect(steps('expectText "say \\"hi\\" \\\\ bye"')).to.deep.equal([{ kind: 'expectText', line: 1, text: 'say "hi" \\ bye' }]);
    expect(steps('click "#a\\:b"')).to.deep.equal([{ kind: 'click', line: 1, selector: '#a\\:b' }]);
    expect(steps('click "text=Sign in"')).to.deep.equal([{ kind: 'click', line: 1, selector: 'text=Sign in' }]);
    expect(steps('fill #q ""')).to.deep.equal([{ kind: 'fill', line: 1, selector: '#q', text: '' }]);
    expect(steps('fill "#first name" bare')).to.deep.equal([{ kind: 'fill', line: 1, selector: '#first name', text: 'bare' }]);
  });

  it('names the line of the first error', () => {
    expect(failure('goto /\nclick #a\nclik #b\nnope')).to.deep.include({ line: 3 });
    expect(failure('goto /\nclik #b').message).to.match(/^unknown step "clik" \(steps: goto, click, fill/);
  });

  it('refuses wrong argument counts and unclosed or glued quotes', () => {
    expect(failure('click text=Sign in').message).to.equal('click takes one argument; quote an argument that contains spaces');
    expect(failure('click').message).to.match(/one argument/);
    expect(failure('fill #email').message).to.equal('fill takes a selector and a text; quote an argument that contains spaces');
    expect(failure('fill #a "b" "c"').message).to.match(/a selector and a text/);
    expect(failure('expectText "open').message).to.equal('a quoted text is not closed (missing ")');
    expect(failure('expectText "a"b').message).to.equal('expected a space after the closing "');
  });

  it('refuses empty selectors and texts', () => {
    expect(failure('click ""').message).to.equal('the selector is empty');
    expect(failure('expectText "  "').message).to.equal('the text is empty');
    expect(failure('expectTitle ""').message).to.equal('the text is empty');
  });

  it('accepts goto http(s) URLs and /paths only', () => {
    expect(steps('goto HTTPS://Shop.Acme.COM')).to.deep.equal([{ kind: 'goto', line: 1, target: 'https://shop.acme.com/' }]);
    for (const bad of [
      'goto javascript:alert(1)',
      'goto file:///etc/passwd',
      'goto //evil.example/',
      'goto login',
      'goto http://user@shop.acme.com/',
      'goto http://localhost/',
      'goto ftp://shop.acme.com/',
    ]) {
      expect(failure(bad).message, bad).to.equal('goto takes an http(s) URL or a path starting with /');
    }
  });

  it('caps waits, checks key names', () => {
    expect(steps(`wait ${SCENARIO_LIMITS.maxWaitMs}`)).to.deep.equal([{ kind: 'wait', line: 1, ms: 10_000 }]);
    for (const bad of ['wait 0', 'wait 10001', 'wait 1.5', 'wait soon', 'wait -5']) {
      expect(failure(bad).message, bad).to.equal('wait takes milliseconds, 1 to 10000');
    }
    expect(steps('press Control+A')).to.deep.equal([{ kind: 'press', line: 1, key: 'Control+A' }]);
    expect(failure(`press ${'K'.repeat(41)}`).message).to.match(/key name/);
  });

  it('limits steps, line length and argument length', () => {
    const fifty = Array.from({ length: SCENARIO_LIMITS.maxSteps }, () => 'wait 1');
    expect(steps(['# many', ...fifty].join('\n'))).to.have.length(50);
    expect(failure(['# many', ...fifty, 'wait 1'].join('\n'))).to.deep.equal({
      ok: false,
      line: 52,
      message: 'a scenario has at most 50 steps',
    });
    expect(failure(`click #a\nexpectText "${'x'.repeat(SCENARIO_LIMITS.maxLineLength)}"`)).to.deep.equal({
      ok: false,
      line: 2,
      message: 'longer than 1000 characters',
    });
    expect(failure(`click ${'a'.repeat(501)}`).message).to.equal('an argument is longer than 500 characters');
  });

  it('describes steps as scripts spell them, masking filled texts', () => {
    const [goto, fill, click, press, wait, expectText] = steps(
      'goto /a\nfill #pw "hunter2"\nclick "text=Sign in"\npress Enter\nwait 5\nexpectText plain',
    );
    expect([goto, fill, click, press, wait, expectText].map((s) => describeStep(s!))).to.deep.equal([
      'goto /a',
      'fill #pw "***"',
      'click "text=Sign in"',
      'press Enter',
      'wait 5',
      'expectText plain',
    ]);
  });

  it('splits and formats arguments so that formatting reads back the same value', () => {
    for (const value of ['plain', 'two words', 'say "hi"', 'back\\slash', '']) {
      const split = splitArguments(formatArgument(value));
      expect(split.ok && split.args.map((a) => a.value), value).to.deep.equal([value]);
    }
  });
});
