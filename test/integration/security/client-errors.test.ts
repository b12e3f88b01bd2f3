import { expect } from 'chai';
import net from 'node:net';
import { testServer } from '../../support/test-server';
import { envelopeProblem } from '../../support/schema-fuzz';

/** Found by the schema fuzz: what Node's HTTP parser refuses answered with an empty body, outside the envelope. */
describe('security: requests refused before routing still get the error envelope', () => {
  it('a request line over the header size limit answers 431 in the envelope', async () => {
    const { url } = await testServer();
    const response = await fetch(`${url}/api/customers?q=${'y'.repeat(20_000)}`);
    const text = await response.text();
    expect(response.status).to.equal(431);
    expect(envelopeProblem(431, text), text).to.equal(null);
  });

  it('malformed HTTP answers 400 in the envelope', async () => {
    const { url } = await testServer();
    const { hostname, port } = new URL(url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).to.match(/^HTTP\/1\.1 400 /);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(envelopeProblem(400, body), raw).to.equal(null);
  });
});
