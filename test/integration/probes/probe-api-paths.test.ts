import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api, apiAt, expectError } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aProbeSite, probeCall } from '../../support/probe-api';
import { testServer } from '../../support/test-server';

/** The probe API's paths carry no version (the API's convention); the protocol travels in a header. */
describe('probe API paths and protocol', () => {
  it('documents /api/probe/... only, and names the protocol in X-Probe-Protocol', async () => {
    const { paths } = (await api('GET', '/openapi.json')).body as { paths: Record<string, any> };
    const probePaths = Object.keys(paths).filter((path) => path.startsWith('/api/probe/'));
    expect(probePaths).to.include('/api/probe/hello').and.include('/api/probe/results');
    expect(probePaths.filter((path) => /\/v\d+\//.test(path))).to.deep.equal([]);
    const headers = paths['/api/probe/hello'].post.parameters.map((p: { name: string }) => p.name);
    expect(headers).to.include('x-probe-protocol');
  });

  it('answers hello with the protocol it speaks, and refuses another protocol with 400 naming the header', async () => {
    const site = await aProbeSite((await anOrganization('probe-paths')).token, 'paths');
    const hello = await probeCall(site.key, randomUUID(), '/hello', {}, { headers: { 'x-probe-protocol': '1' } });
    expect(hello.status, JSON.stringify(hello.body)).to.equal(200);
    expect(hello.body.protocol).to.equal(1);
    const newer = await probeCall(site.key, randomUUID(), '/hello', {}, { headers: { 'x-probe-protocol': '2' } });
    expectError(newer, 400, 'validationFailed');
    expect(newer.body.data).to.include({ header: 'X-Probe-Protocol' });
  });

  it('still answers the first probes at /api/probe/v1/... (undocumented), as the same API', async () => {
    const site = await aProbeSite((await anOrganization('probe-legacy')).token, 'legacy');
    const instance = randomUUID();
    const { url } = await testServer();
    const call = (path: string, body: unknown) =>
      apiAt(url, 'POST', `/api/probe/v1${path}`, { token: site.key, headers: { 'x-probe-instance': instance }, body });
    const hello = await call('/hello', { name: 'old probe', version: '0.9.0' });
    expect(hello.status, JSON.stringify(hello.body)).to.equal(200);
    expect(hello.body).to.include({ protocol: 1, location: site.code, lastSeq: 0 });
    const load = await call('/schedule/load', { generation: 0 });
    expect(load.status).to.equal(200);
    expect(load.body.locations, 'the live workers, and every one registered (a probe alone searches on notices)').to.deep.equal([
      { location: site.code, rows: 0, workers: 0, registered: 0 },
    ]);
    expectError(await call('/schedule/load', { generation: 'x' }), 400, 'validationFailed');
    expectError(await probeCall(site.key, randomUUID(), '/schedule/load', { generation: 0 }), 409, 'probeNotRegistered');
  });
});
