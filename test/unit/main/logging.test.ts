import { expect } from 'chai';
import { Writable } from 'node:stream';
import { readyMessage, serviceLogger } from '../../../src/main/logging';

/** A stream that keeps what is written, claiming to be a terminal or not. */
function anOutput(isTTY: boolean) {
  const lines: string[] = [];
  const out = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
    { isTTY },
  );
  return { out, text: () => lines.join('') };
}

describe('the service logger', () => {
  it('writes JSON lines when its output is not a terminal', () => {
    const { out, text } = anOutput(false);
    serviceLogger('info', out).info({ url: 'http://127.0.0.1:3000' }, 'listening');
    const line = JSON.parse(text().trim()) as Record<string, unknown>;
    expect(line).to.include({ msg: 'listening', url: 'http://127.0.0.1:3000', service: 'monitoring', level: 30 });
  });

  it('writes a sentence a person reads, with its fields after it, when its output is a terminal', () => {
    const { out, text } = anOutput(true);
    serviceLogger('info', out).info({ url: 'http://127.0.0.1:3000' }, readyMessage('http://localhost:3000/'));
    const written = text();
    expect(written).to.include('ready: open http://localhost:3000/ in a browser to sign up and add a monitor');
    expect(written).to.include('url');
    expect(written.trim().startsWith('{'), 'not a JSON object').to.equal(false);
    expect(written).not.to.include('"service"');
  });
});
