import { expect } from 'chai';
import {
  checkRequestFor,
  heartbeatGraceSeconds,
  type SchedulableMonitor,
} from '../../../../src/application/scheduling/monitor-check-request';

const created = new Date('2026-11-01T00:00:00Z');
const aMonitor = (overrides: Partial<SchedulableMonitor> = {}): SchedulableMonitor => ({
  id: 1,
  organizationId: 1,
  customerId: 1,
  kind: 'website',
  monitoringType: 'http',
  checkIntervalSeconds: 60,
  timeoutSeconds: 30,
  url: 'https://shop.example/',
  hostname: null,
  port: null,
  checkMode: null,
  connectHost: null,
  connectPort: null,
  connectTlsInsecure: false,
  config: {},
  credentials: null,
  lastHeartbeatAt: null,
  createdAt: created,
  ...overrides,
});

describe('checkRequestFor (monitor to check)', () => {
  it('maps a website with the default check configuration: any 2xx, certificate checked on https', () => {
    const request = checkRequestFor(aMonitor());
    expect(request).to.deep.include({
      kind: 'http',
      url: 'https://shop.example/',
      method: 'GET',
      followRedirects: true,
      timeoutSeconds: 30,
    });
    expect(request!.kind === 'http' && request!.assertions).to.deep.equal({
      expectedStatusCodes: ['2xx'],
      keyword: null,
      minPageSize: null,
      maxPageSize: null,
      maxResponseTimeMs: null,
      ssl: { noticeDays: 14 },
      httpsRedirect: false,
    });
  });

  it('turns each enabled check toggle into its assertion, and leaves disabled ones out', () => {
    const request = checkRequestFor(
      aMonitor({
        url: 'http://shop.example/',
        config: {
          checkStatusEnabled: false,
          checkKeywordEnabled: true,
          keyword: 'Welcome',
          keywordMode: 'absent',
          keywordCaseSensitive: true,
          checkSizeEnabled: true,
          minPageSize: 10,
          maxPageSize: 5000,
          checkResponseTimeEnabled: true,
          responseTimeThreshold: 800,
          checkHttpsRedirectEnabled: true,
          expectedStatusCodes: [200, 301],
        },
        connectHost: 'origin.example',
        connectPort: 8443,
        connectTlsInsecure: true,
      }),
    );
    expect(request).to.deep.include({ connectTo: { host: 'origin.example', port: 8443 }, connectTlsInsecure: true });
    expect(request!.kind === 'http' && request!.assertions).to.deep.equal({
      expectedStatusCodes: null,
      keyword: { value: 'Welcome', mode: 'absent', caseSensitive: true },
      minPageSize: 10,
      maxPageSize: 5000,
      maxResponseTimeMs: 800,
      ssl: null,
      httpsRedirect: true,
    });
    const statuses = checkRequestFor(aMonitor({ config: { expectedStatusCodes: [200, 301] } }));
    expect(statuses!.kind === 'http' && statuses!.assertions.expectedStatusCodes).to.deep.equal(['200', '301']);
  });

  it('splits a stored connectHost once into the host the target policy vets and the port to dial (host:port form included)', () => {
    const connectTo = (connectHost: string | null, connectPort: number | null = null) =>
      (checkRequestFor(aMonitor({ connectHost, connectPort })) as { connectTo: unknown }).connectTo;
    expect(connectTo('127.0.0.1:8443', 8443)).to.deep.equal({ host: '127.0.0.1', port: 8443 });
    expect(connectTo('origin.example.com:8443', 8443)).to.deep.equal({ host: 'origin.example.com', port: 8443 });
    expect(connectTo('[2606:4700::1]:8443', 8443)).to.deep.equal({ host: '2606:4700::1', port: 8443 });
    expect(connectTo('[2606:4700::1]')).to.deep.equal({ host: '2606:4700::1', port: null });
    expect(connectTo('origin.example.com', 444)).to.deep.equal({ host: 'origin.example.com', port: 444 });
    expect(connectTo('origin.example.com')).to.deep.equal({ host: 'origin.example.com', port: null }, "no port: the url's own");
    expect(connectTo('origin.example.com:8443', 9443)).to.deep.equal(
      { host: 'origin.example.com', port: 8443 },
      'the port written in connectHost wins',
    );
    expect(connectTo(null, 8443)).to.equal(null);
    expect(connectTo('a/b:1', 1)).to.deep.equal(
      { host: 'a/b:1', port: 1 },
      'a stored value that no longer parses is left for the policy to refuse',
    );
  });

  it('judges heartbeats from the last beat, with a grace of 10 % of the interval (1-10 minutes)', () => {
    const beat = new Date('2026-11-22T10:00:00Z');
    expect(
      checkRequestFor(aMonitor({ monitoringType: 'heartbeat', url: null, lastHeartbeatAt: beat, checkIntervalSeconds: 3600 })),
    ).to.deep.equal({
      kind: 'heartbeat',
      lastBeatAt: beat,
      expectingSince: created,
      intervalSeconds: 3600,
      graceSeconds: 360,
    });
    expect([heartbeatGraceSeconds(60), heartbeatGraceSeconds(3600), heartbeatGraceSeconds(2_592_000)]).to.deep.equal([60, 360, 600]);
  });

  it('runs scripted-browser scenarios as parsed steps, screenshots kept for the monitor; a script that no longer parses runs nothing', () => {
    expect(
      checkRequestFor(
        aMonitor({ id: 7, organizationId: 3, monitoringType: 'scripted_browser', config: { script: '# log in\nclick #go' } }),
      ),
    ).to.deep.equal({
      kind: 'browser',
      url: 'https://shop.example/',
      timeoutSeconds: 30,
      steps: [{ kind: 'click', line: 2, selector: '#go' }],
      screenshotOwner: { monitorId: 7, organizationId: 3 },
    });
    expect(checkRequestFor(aMonitor({ monitoringType: 'scripted_browser', config: { script: 'await page.goto(url)' } }))).to.equal(null);
  });

  it('maps DNS, ICMP and TCP monitors', () => {
    expect(
      checkRequestFor(
        aMonitor({
          kind: 'dns',
          monitoringType: 'dns',
          hostname: 'shop.example',
          config: { recordType: 'MX', expectedValues: ['mx.shop.example'], resolver: '9.9.9.9' },
        }),
      ),
    ).to.deep.equal({
      kind: 'dns',
      name: 'shop.example',
      recordType: 'MX',
      resolver: '9.9.9.9',
      expectedValues: ['mx.shop.example'],
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ kind: 'icmp', monitoringType: 'icmp', hostname: 'shop.example' }))).to.deep.include({
      kind: 'icmp',
      host: 'shop.example',
      packets: 3,
    });
    expect(checkRequestFor(aMonitor({ kind: 'tcp', monitoringType: 'tcp', hostname: 'shop.example', port: 5432 }))).to.deep.equal({
      kind: 'tcp',
      host: 'shop.example',
      port: 5432,
      timeoutSeconds: 30,
    });
  });

  it('maps a UDP monitor to its datagram and expected reply (any reply when none is stored)', () => {
    const udp = { kind: 'udp', monitoringType: 'udp', hostname: 'game.example', port: 27015 } as const;
    expect(checkRequestFor(aMonitor({ ...udp, config: { payload: 'status\n', expectedReply: 'players' } }))).to.deep.equal({
      kind: 'udp',
      host: 'game.example',
      port: 27015,
      payload: 'status\n',
      expectedReply: 'players',
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...udp, config: { payload: '' } }))).to.deep.include({ payload: '', expectedReply: null });
  });

  it('maps a Redis monitor to its command, expected reply, TLS and credentials (the default port when none is stored)', () => {
    const credentials = { username: 'default', password: 'secret' };
    const redis = { kind: 'redis', monitoringType: 'redis', hostname: 'cache.example', credentials } as const;
    const config = { command: 'GET health', expectedReply: 'ok', sslMode: 'require' } as const;
    expect(checkRequestFor(aMonitor({ ...redis, config }))).to.deep.equal({
      kind: 'redis',
      host: 'cache.example',
      port: 6379,
      ssl: 'require',
      credentials,
      command: 'GET health',
      expectedReply: 'ok',
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...redis, port: 6380, config: {} }))).to.deep.include({
      port: 6380,
      command: 'PING',
      ssl: 'disable',
    });
  });

  it('maps PostgreSQL and MySQL monitors to their query, and a tcp-mode one to a bare port check without credentials', () => {
    const credentials = { username: 'monitor', password: 'secret' };
    const config = { database: 'shop', query: 'SELECT 2', expectedResult: '2', sslMode: 'verify-full' } as const;
    for (const [kind, port] of [
      ['postgres', 5432],
      ['mysql', 3306],
    ] as const) {
      const db = { kind, monitoringType: kind, hostname: 'db.example', credentials } as const;
      expect(checkRequestFor(aMonitor({ ...db, config }))).to.deep.equal({
        kind,
        host: 'db.example',
        port,
        ssl: 'verify-full',
        credentials,
        database: 'shop',
        query: 'SELECT 2',
        expectedResult: '2',
        timeoutSeconds: 30,
      });
      expect(checkRequestFor(aMonitor({ ...db, config: {} }))).to.deep.include({ database: null, query: 'SELECT 1', expectedResult: null });
      expect(checkRequestFor(aMonitor({ ...db, checkMode: 'tcp', config }))).to.deep.equal({
        kind: 'tcp',
        host: 'db.example',
        port,
        timeoutSeconds: 30,
      });
    }
  });

  it('maps a WebSocket monitor to wss on 443 (ws on 80 plain), its path from a /, its message and expected message', () => {
    const ws = { kind: 'websocket', monitoringType: 'websocket', hostname: 'live.example', port: null } as const;
    const config = { transport: 'tls', path: '/socket?v=1', message: 'ping', expectedMessage: 'pong' } as const;
    expect(checkRequestFor(aMonitor({ ...ws, config }))).to.deep.equal({
      kind: 'websocket',
      host: 'live.example',
      port: 443,
      tls: true,
      path: '/socket?v=1',
      message: 'ping',
      expectedMessage: 'pong',
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...ws, port: 8080, config: { transport: 'plain', path: 'feed' } }))).to.deep.include({
      port: 8080,
      tls: false,
      path: '/feed',
      message: null,
      expectedMessage: null,
    });
    expect(checkRequestFor(aMonitor({ ...ws, config: { transport: 'plain', path: '/' } }))).to.deep.include({ port: 80 });
  });

  it('maps a gRPC monitor to a health check of its service over TLS (plaintext with transport plain)', () => {
    const grpc = { kind: 'grpc', monitoringType: 'grpc', hostname: 'api.example', port: 50051 } as const;
    expect(checkRequestFor(aMonitor({ ...grpc, config: { transport: 'tls', serviceName: 'shop.Checkout' } }))).to.deep.equal({
      kind: 'grpc',
      host: 'api.example',
      port: 50051,
      tls: true,
      service: 'shop.Checkout',
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...grpc, config: { transport: 'plain', serviceName: '' } }))).to.deep.include({
      tls: false,
      service: '',
    });
  });

  it('maps an MQTT monitor to its login, topic and expected message on 8883 (1883 plain); tcp mode is a bare port check without the login', () => {
    const credentials = { username: 'probe', password: 'secret' };
    const mqtt = { kind: 'mqtt', monitoringType: 'mqtt', hostname: 'broker.example', port: null, credentials } as const;
    const config = { transport: 'tls', topic: 'plant/1/status', expectedMessage: 'online' } as const;
    expect(checkRequestFor(aMonitor({ ...mqtt, checkMode: 'protocol', config }))).to.deep.equal({
      kind: 'mqtt',
      host: 'broker.example',
      port: 8883,
      tls: true,
      credentials,
      topic: 'plant/1/status',
      expectedMessage: 'online',
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...mqtt, checkMode: 'protocol', config: { ...config, transport: 'plain' } }))).to.deep.include({
      port: 1883,
      tls: false,
    });
    expect(checkRequestFor(aMonitor({ ...mqtt, checkMode: 'tcp', config }))).to.deep.equal({
      kind: 'tcp',
      host: 'broker.example',
      port: 8883,
      timeoutSeconds: 30,
    });
  });

  it('maps an SNMP monitor: v2c with the password as community (public without a login), v3 with its user, protocols and keys', () => {
    const snmp = { kind: 'snmp', monitoringType: 'snmp', hostname: 'switch.example', port: null, checkMode: 'protocol' } as const;
    const v2c = { snmpVersion: 'v2c', oid: '1.3.6.1.2.1.1.3.0', expectedValue: '100', comparison: 'above' } as const;
    expect(checkRequestFor(aMonitor({ ...snmp, config: v2c, credentials: { username: 'unused', password: 'c0mmunity' } }))).to.deep.equal({
      kind: 'snmp',
      host: 'switch.example',
      port: 161,
      version: 'v2c',
      community: 'c0mmunity',
      user: null,
      oid: '1.3.6.1.2.1.1.3.0',
      expected: { value: '100', comparison: 'above' },
      timeoutSeconds: 30,
    });
    expect(checkRequestFor(aMonitor({ ...snmp, config: { ...v2c, expectedValue: null }, credentials: null }))).to.deep.include({
      community: 'public',
      expected: null,
    });
    const v3 = { ...v2c, snmpVersion: 'v3', authProtocol: 'sha256', privProtocol: 'aes' } as const;
    expect(
      checkRequestFor(aMonitor({ ...snmp, port: 1161, config: v3, credentials: { username: 'probe', password: 'auth-key' } })),
    ).to.deep.include({
      port: 1161,
      version: 'v3',
      community: '',
      user: { name: 'probe', authProtocol: 'sha256', authKey: 'auth-key', privProtocol: 'aes', privKey: 'auth-key' },
    });
    const withPriv = { username: 'probe', password: 'auth-key', privateKey: 'priv-key' };
    expect(
      (checkRequestFor(aMonitor({ ...snmp, config: v3, credentials: withPriv })) as { user: { privKey: string } }).user.privKey,
    ).to.equal('priv-key');
  });

  it('maps service monitors with their TLS mode, and sends no credentials in tcp mode', () => {
    const credentials = { username: 'probe', password: 'secret' };
    expect(
      checkRequestFor(aMonitor({ kind: 'smtp', monitoringType: 'smtp', hostname: 'mx.example', credentials, checkMode: 'protocol' })),
    ).to.deep.include({ kind: 'smtp', host: 'mx.example', port: null, mode: 'protocol', credentials, tls: 'starttls', sslNoticeDays: 14 });
    expect(
      checkRequestFor(aMonitor({ kind: 'ssh', monitoringType: 'ssh', hostname: 'box.example', credentials, checkMode: 'tcp', port: 22 })),
    ).to.deep.include({ kind: 'ssh', mode: 'tcp', credentials: null, port: 22 });
    expect(
      checkRequestFor(aMonitor({ kind: 'ftp', monitoringType: 'ftp', hostname: 'ftp.example', config: { tlsMode: 'starttls' } })),
    ).to.deep.include({ kind: 'ftp', tls: 'explicit' });
    expect(
      checkRequestFor(
        aMonitor({
          kind: 'imap-pop',
          monitoringType: 'imap-pop',
          hostname: 'mail.example',
          config: { protocol: 'pop3', tlsMode: 'implicit' },
        }),
      ),
    ).to.deep.include({ kind: 'pop3', tls: 'implicit' });
    expect(
      checkRequestFor(aMonitor({ kind: 'imap-pop', monitoringType: 'imap-pop', hostname: 'mail.example', config: { protocol: 'imap' } })),
    ).to.deep.include({ kind: 'imap', tls: 'implicit' });
  });

  it('maps an API chain website to its steps and decrypted secrets, and a chain without steps to nothing', () => {
    const steps = [
      { name: 'ping', method: 'GET' as const, url: 'https://api.example/ping', headers: {}, body: null, extract: [], assertions: [] },
    ];
    const request = checkRequestFor(
      aMonitor({ monitoringType: 'api_chain', config: { steps }, secrets: { key: 'k' }, timeoutSeconds: 20 }),
    );
    expect(request).to.deep.equal({ kind: 'apiChain', steps, secrets: { key: 'k' }, timeoutSeconds: 20 });
    expect(checkRequestFor(aMonitor({ monitoringType: 'api_chain', config: { steps: null } }))).to.equal(null);
  });
});
