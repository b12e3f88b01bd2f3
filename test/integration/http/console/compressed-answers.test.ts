import { expect } from 'chai';
import http from 'node:http';
import zlib from 'node:zlib';
import { anOrganization } from '../../../support/builders';
import { ensureConsoleBuilt } from '../../../support/console-build';
import { api } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testServer } from '../../../support/test-server';

/** One answer's head and its bytes as they came over the wire (no client decompression). */
async function onTheWire(path: string, headers: Record<string, string>, firstChunkOnly = false) {
  const target = new URL((await testServer()).url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const request = http.get({ host: target.hostname, port: target.port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (firstChunkOnly) {
          request.destroy();
          resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) });
        }
      });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
    });
    request.on('error', (error) => (firstChunkOnly ? undefined : reject(error)));
  });
}

const decoded = (encoding: string | undefined, bytes: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(bytes) : encoding === 'gzip' ? zlib.gunzipSync(bytes) : bytes;

describe('http: answers travel compressed', function () {
  this.timeout(120_000);
  before(() => ensureConsoleBuilt());

  it("sends the console's assets as their precompressed Brotli or gzip file, as the browser accepts, the same bytes once decoded", async () => {
    const page = await api('GET', '/app');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).to.be.at.least(2);
    for (const asset of assets) {
      const plain = await onTheWire(asset, {});
      expect(plain.headers['content-encoding'], asset).to.equal(undefined);
      for (const [accepted, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const packed = await onTheWire(asset, { 'accept-encoding': accepted });
        expect(packed.status, asset).to.equal(200);
        expect(packed.headers['content-encoding'], `${asset} for ${accepted}`).to.equal(encoding);
        expect(packed.headers.vary ?? '', asset).to.match(/accept-encoding/i);
        expect(packed.headers['cache-control'], asset).to.include('immutable');
        expect(packed.headers['content-security-policy'], asset).to.include("default-src 'none'");
        expect(decoded(encoding, packed.bytes).equals(plain.bytes), `${asset} decodes to itself`).to.equal(true);
        if (plain.bytes.length > 20_000) expect(packed.bytes.length, asset).to.be.below(plain.bytes.length / 2);
      }
    }
  });

  it('compresses JSON answers of 1 KB or more, and leaves small ones as they are', async () => {
    const plain = await onTheWire('/openapi.json', {});
    expect(plain.headers['content-encoding']).to.equal(undefined);
    for (const encoding of ['br', 'gzip']) {
      const packed = await onTheWire('/openapi.json', { 'accept-encoding': encoding });
      expect(packed.headers['content-encoding']).to.equal(encoding);
      expect(packed.headers.vary ?? '').to.match(/accept-encoding/i);
      expect(JSON.parse(decoded(encoding, packed.bytes).toString('utf8'))).to.deep.equal(JSON.parse(plain.bytes.toString('utf8')));
      expect(packed.bytes.length).to.be.below(plain.bytes.length / 5);
    }
    const small = await onTheWire('/api/nothing-here', { 'accept-encoding': 'br, gzip' });
    expect(small.status).to.equal(404);
    expect(small.bytes.length).to.be.below(1024);
    expect(small.headers['content-encoding']).to.equal(undefined);
  });

  it("leaves the event intake's answers to the intake: a 202 and a refusal carry nothing of the compressor", async () => {
    const callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    const target = new URL((await testServer()).url);
    const post = (body: string) =>
      fetch(new URL('/api/im/events', target), {
        method: 'POST',
        headers: { authorization: `Bearer ${callers.orgToken}`, 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
        body,
      });
    const event = JSON.stringify({
      routing_key: 'x',
      event_action: 'trigger',
      payload: { summary: 'Disk full', source: 'db-1', severity: 'error' },
    });
    const accepted = await post(event);
    expect(accepted.status, await accepted.clone().text()).to.equal(202);
    expect(accepted.headers.get('vary')).to.equal(null);
    expect(accepted.headers.get('content-encoding')).to.equal(null);
    const refused = await post('{"routing_key":');
    expect(refused.status).to.be.within(400, 499);
    expect(refused.headers.get('vary')).to.equal(null);
    expect(((await refused.json()) as { data: { code: string } }).data.code).to.be.a('string');
  });

  it('never compresses the event stream: its first bytes arrive at once, as they are', async () => {
    const org = await anOrganization();
    const stream = await onTheWire('/api/events', { authorization: `Bearer ${org.token}`, 'accept-encoding': 'br, gzip' }, true);
    expect(stream.status).to.equal(200);
    expect(stream.headers['content-type']).to.match(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).to.equal(undefined);
    expect(stream.bytes.length).to.be.greaterThan(0);
  });
});
