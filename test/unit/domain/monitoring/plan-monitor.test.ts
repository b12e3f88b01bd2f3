import { expect } from 'chai';
import { planMonitor } from '../../../../src/domain/monitoring/plan-monitor';
import type { PlanContext } from '../../../../src/domain/monitoring/monitor-plan';
import type { MonitorKind } from '../../../../src/domain/monitoring/monitor-kind';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/domain/monitoring/alert-settings';
import { expectAppError } from '../../../support/expect-app-error';

const ctx = (kind: MonitorKind, packageMinimumInterval = 1): PlanContext => ({
  kind,
  packageMinimumInterval,
  locationCatalogue: ['eu-west', 'us-east'],
  defaultLocations: ['eu-west', 'us-east'],
  alertDefaults: DEFAULT_ALERT_SETTINGS,
});

describe('planning a website', () => {
  it('creates an HTTP check with defaults and vets its url', () => {
    const plan = planMonitor(ctx('website'), null, { url: 'https://Example.com/health' });
    expect(plan.state).to.include({
      monitoringType: 'http',
      name: 'example.com',
      checkInterval: 5,
      timeoutSeconds: 30,
      url: 'https://example.com/health',
    });
    expect(plan.state.locations).to.deep.equal(['eu-west', 'us-east']);
    expect(plan.state.config).to.include({ method: 'GET', checkSslEnabled: true, sslNoticeDays: 14 });
    expect(plan.targets).to.deep.equal([{ field: 'url', host: 'example.com' }]);
    expect(plan.needsHeartbeatToken).to.equal(false);
  });

  it('gives a new monitor the default locations, and checks sent ones against the whole catalogue', () => {
    const served: PlanContext = { ...ctx('website'), defaultLocations: ['us-east'] };
    expect(planMonitor(served, null, { url: 'https://example.com/' }).state.locations).to.deep.equal(['us-east']);
    expect(planMonitor(served, null, { url: 'https://example.com/', locations: ['eu-west'] }).state.locations).to.deep.equal(['eu-west']);
    expectAppError(() => planMonitor(served, null, { url: 'https://example.com/', locations: ['ap-southeast'] }), 'validationFailed');
  });

  it('answers invalidUrl for malformed and reserved hosts, leaves addresses to the target policy, and a missing url is a validation issue', () => {
    expect(planMonitor(ctx('website'), null, { url: 'http://127.1/' }).targets).to.deep.equal([{ field: 'url', host: '127.0.0.1' }]);
    expectAppError(() => planMonitor(ctx('website'), null, { url: 'http://user@example.com/' }), 'invalidUrl', { reason: 'malformed' });
    expectAppError(() => planMonitor(ctx('website'), null, { url: 'http://localhost/' }), 'invalidUrl', { reason: 'reservedName' });
    expectAppError(() => planMonitor(ctx('website'), null, {}), 'validationFailed');
  });

  it('creates a heartbeat without url or locations, with a token to issue and a 43200-minute ceiling', () => {
    const plan = planMonitor(ctx('website'), null, { monitoringType: 'heartbeat', url: 'http://10.0.0.1/', checkInterval: 43200 });
    expect(plan.state).to.include({ monitoringType: 'heartbeat', url: null, checkInterval: 43200, name: 'Heartbeat' });
    expect(plan.state.locations).to.deep.equal([]);
    expect(plan.needsHeartbeatToken).to.equal(true);
    expect(plan.targets).to.deep.equal([]);
  });

  it('requires a script for scripted-browser scenarios', () => {
    expectAppError(
      () => planMonitor(ctx('website'), null, { monitoringType: 'scripted_browser', url: 'https://example.com/' }),
      'validationFailed',
    );
    const plan = planMonitor(ctx('website'), null, {
      monitoringType: 'scripted_browser',
      url: 'https://example.com/',
      script: 'click #buy\nexpectText "Thanks"',
    });
    expect(plan.state.config.script).to.equal('click #buy\nexpectText "Thanks"');
  });

  it('refuses a script that does not parse, on the script path and naming the line', () => {
    const scenario = { monitoringType: 'scripted_browser', url: 'https://example.com/' };
    expectAppError(
      () => planMonitor(ctx('website'), null, { ...scenario, script: 'click #buy\nawait page.goto(url)' }),
      'validationFailed',
      {
        issues: [
          {
            path: ['script'],
            message:
              'Line 2: unknown step "await" (steps: goto, click, fill, press, waitFor, expectText, expectNoText, expectTitle, expectUrl, wait)',
            code: 'custom',
          },
        ],
      },
    );
    const stored = planMonitor(ctx('website'), null, { ...scenario, script: 'click #buy' }).state;
    expectAppError(() => planMonitor(ctx('website'), stored, { script: 'wait forever' }), 'validationFailed');
    expectAppError(() => planMonitor(ctx('website'), null, { url: 'https://example.com/', script: 'clik #a' }), 'validationFailed');
  });

  it('vets connectHost on page checks and accepts connect fields without effect elsewhere', () => {
    const http = planMonitor(ctx('website'), null, {
      url: 'https://example.com/',
      connectHost: 'origin.example.net:8443',
      connectTlsInsecure: true,
    });
    expect(http.targets).to.deep.include({ field: 'connectHost', host: 'origin.example.net' });
    expect(http.state).to.include({ connectHost: 'origin.example.net:8443', connectPort: 8443, connectTlsInsecure: true });
    expectAppError(
      () => planMonitor(ctx('website'), null, { url: 'https://example.com/', connectTlsInsecure: true }),
      'connectTlsInsecureWithoutHost',
    );
    const heartbeat = planMonitor(ctx('website'), null, {
      monitoringType: 'heartbeat',
      connectTlsInsecure: true,
      connectHost: 'origin.example.net',
    });
    expect(heartbeat.targets).to.deep.equal([]);
    expect(heartbeat.state.connectTlsInsecure).to.equal(true);
  });

  it('PATCH: derives the ceiling from the sent type, else the stored one', () => {
    const stored = planMonitor(ctx('website'), null, { monitoringType: 'heartbeat', checkInterval: 5000 }).state;
    expect(planMonitor(ctx('website'), stored, { checkInterval: 6000 }).state.checkInterval).to.equal(6000);
    expectAppError(
      () => planMonitor(ctx('website'), stored, { monitoringType: 'http', url: 'https://example.com/' }),
      'checkIntervalTooHigh',
    );
    expectAppError(
      () => planMonitor(ctx('website'), stored, { monitoringType: 'http', url: 'https://example.com/', checkInterval: 2000 }),
      'checkIntervalTooHigh',
    );
    const http = planMonitor(ctx('website'), stored, { monitoringType: 'http', url: 'https://example.com/', checkInterval: 10 });
    expect(http.state).to.include({ monitoringType: 'http', checkInterval: 10 });
  });

  it('PATCH: answers the partial-update codes', () => {
    const stored = planMonitor(ctx('website', 2), null, { url: 'https://example.com/' }).state;
    expectAppError(() => planMonitor(ctx('website', 2), stored, { checkInterval: 0 }), 'invalidCheckInterval');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { checkInterval: 1 }), 'checkIntervalTooLow');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { timeoutSeconds: 61 }), 'invalidTimeout');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { sslNoticeDays: 400 }), 'invalidCheckConfig');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { url: 'ftp://example.com/' }), 'invalidUrl');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { url: 42 }), 'invalidUrl');
    expectAppError(() => planMonitor(ctx('website', 2), stored, { connectHost: 'a/b' }), 'connectHostInvalid');
    expect(planMonitor(ctx('website', 2), stored, { name: 'Shop' }).targets).to.deep.equal([]);
  });

  it('POST: reports an interval above the ceiling as a validation issue and below the package minimum as checkIntervalTooLow', () => {
    expectAppError(() => planMonitor(ctx('website'), null, { url: 'https://example.com/', checkInterval: 1441 }), 'validationFailed');
    expectAppError(() => planMonitor(ctx('website', 10), null, { url: 'https://example.com/', checkInterval: 5 }), 'checkIntervalTooLow');
  });
});

describe('planning per-kind monitors', () => {
  it('vets the hostname of connecting kinds and refuses reserved names with invalidHostname', () => {
    const plan = planMonitor(ctx('tcp'), null, { hostname: 'DB.Example.com', port: 5432 });
    expect(plan.state).to.include({ monitoringType: 'tcp', hostname: 'db.example.com', port: 5432, checkMode: null });
    expect(plan.targets).to.deep.equal([{ field: 'hostname', host: 'db.example.com' }]);
    expectAppError(() => planMonitor(ctx('ssh'), null, { hostname: 'bastion.internal' }), 'invalidHostname');
    expectAppError(() => planMonitor(ctx('ftp'), null, { hostname: 'ftp..example.com' }), 'invalidHostname');
    expectAppError(() => planMonitor(ctx('tcp'), null, { hostname: 'db.example.com' }), 'portRequiredForTcp');
  });

  it('defaults checkMode to protocol, keeps credentials only in protocol mode', () => {
    const smtp = planMonitor(ctx('smtp'), null, { hostname: 'mail.example.com', credentials: { username: 'u', password: 'p' } });
    expect(smtp.state).to.include({ checkMode: 'protocol', port: null });
    expect(smtp.state.config.tlsMode).to.equal('starttls');
    expect(smtp.credentials).to.deep.equal({ kind: 'set', value: { username: 'u', password: 'p' } });
    const tcp = planMonitor(ctx('smtp'), smtp.state, { checkMode: 'tcp', credentials: { username: 'u', password: 'p' } });
    expect(tcp.credentials).to.deep.equal({ kind: 'clear' });
    expectAppError(() => planMonitor(ctx('smtp'), smtp.state, { checkMode: 'udp' }), 'invalidCheckMode');
  });

  it('needs an explicit port for IMAP/POP in tcp mode', () => {
    const imap = planMonitor(ctx('imap-pop'), null, { hostname: 'imap.example.com', protocol: 'imap' });
    expect(imap.state.config).to.include({ protocol: 'imap', tlsMode: 'implicit' });
    expectAppError(() => planMonitor(ctx('imap-pop'), imap.state, { checkMode: 'tcp' }), 'portRequiredForTcp');
    expect(planMonitor(ctx('imap-pop'), imap.state, { checkMode: 'tcp', port: 993 }).state).to.include({ checkMode: 'tcp', port: 993 });
    expect(planMonitor(ctx('ssh'), null, { hostname: 'ssh.example.com', checkMode: 'tcp' }).state.checkMode).to.equal('tcp');
    expectAppError(() => planMonitor(ctx('imap-pop'), null, { hostname: 'imap.example.com' }), 'validationFailed');
  });

  it("vets a DNS hostname's addresses (a name without any is fine) and its resolver", () => {
    const dns = planMonitor(ctx('dns'), null, { hostname: '_dmarc.example.com', recordType: 'TXT', resolver: '9.9.9.9' });
    expect(dns.state.config).to.deep.include({ recordType: 'TXT', expectedValues: [], resolver: '9.9.9.9' });
    expect(dns.targets).to.deep.equal([
      { field: 'hostname', host: '_dmarc.example.com', mayBeUnresolvable: true },
      { field: 'resolver', host: '9.9.9.9' },
    ]);
    expectAppError(() => planMonitor(ctx('dns'), null, { hostname: '8.8.8.8' }), 'invalidHostname', { reason: 'notAName' });
    expectAppError(() => planMonitor(ctx('dns'), null, { hostname: 'example.com', resolver: 'localhost' }), 'invalidHostname', {
      field: 'resolver',
    });
    // The checker asks a nameserver at its address: a name here would pass vetting and fail every check.
    expectAppError(() => planMonitor(ctx('dns'), null, { hostname: 'example.com', resolver: 'dns.example.net' }), 'invalidHostname', {
      field: 'resolver',
      reason: 'notAnAddress',
    });
  });
});

describe('planning a UDP monitor', () => {
  it('needs a port (portRequiredForTcp, as a TCP monitor) and a payload; any reply passes unless expectedReply is set', () => {
    expectAppError(() => planMonitor(ctx('udp'), null, { hostname: 'ntp.example.com', payload: 'x' }), 'portRequiredForTcp');
    expectAppError(() => planMonitor(ctx('udp'), null, { hostname: 'ntp.example.com', port: 123 }), 'validationFailed');
    const plan = planMonitor(ctx('udp'), null, { hostname: 'Game.Example.com', port: 27015, payload: '' });
    expect(plan.state).to.include({ monitoringType: 'udp', hostname: 'game.example.com', port: 27015, checkMode: null });
    expect(plan.state.config).to.deep.equal({ payload: '', expectedReply: null });
    expect(plan.targets).to.deep.equal([{ field: 'hostname', host: 'game.example.com' }]);
    const changed = planMonitor(ctx('udp'), plan.state, { expectedReply: 'pong' });
    expect(changed.state.config).to.deep.equal({ payload: '', expectedReply: 'pong' });
  });
});

describe('planning the database monitors (Redis, PostgreSQL, MySQL)', () => {
  it('defaults a Redis monitor to PING, any reply, no TLS, port 6379; keeps its credentials in protocol mode only', () => {
    const plan = planMonitor(ctx('redis'), null, {
      hostname: 'Cache.Example.com',
      credentials: { username: 'default', password: 'p' },
    });
    expect(plan.state).to.include({ monitoringType: 'redis', hostname: 'cache.example.com', port: null, checkMode: 'protocol' });
    expect(plan.state.config).to.deep.equal({ command: 'PING', expectedReply: null, sslMode: 'disable' });
    expect(plan.credentials).to.deep.equal({ kind: 'set', value: { username: 'default', password: 'p' } });
    const tcp = planMonitor(ctx('redis'), plan.state, { checkMode: 'tcp' });
    expect(tcp.credentials).to.deep.equal({ kind: 'clear' });
    const changed = planMonitor(ctx('redis'), plan.state, { command: 'GET health', expectedReply: 'ok', sslMode: 'verify-full' });
    expect(changed.state.config).to.deep.equal({ command: 'GET health', expectedReply: 'ok', sslMode: 'verify-full' });
  });

  for (const kind of ['postgres', 'mysql'] as const) {
    it(`defaults a ${kind} monitor to SELECT 1, any answer, the server's database, no TLS; a null database stays null`, () => {
      const plan = planMonitor(ctx(kind), null, { hostname: 'db.example.com', credentials: { username: 'u', password: 'p' } });
      expect(plan.state).to.include({ monitoringType: kind, port: null, checkMode: 'protocol' });
      expect(plan.state.config).to.deep.equal({ database: null, query: 'SELECT 1', expectedResult: null, sslMode: 'disable' });
      expect(plan.credentials).to.deep.equal({ kind: 'set', value: { username: 'u', password: 'p' } });
      const changed = planMonitor(ctx(kind), plan.state, { database: 'shop', expectedResult: '1' });
      expect(changed.state.config).to.include({ database: 'shop', expectedResult: '1', query: 'SELECT 1' });
      expect(planMonitor(ctx(kind), changed.state, { database: null }).state.config.database).to.equal(null);
    });
  }
});

describe('planning a WebSocket monitor', () => {
  it('defaults to TLS on port 443 at /, sending and awaiting nothing; a plain one is ws:// on 80', () => {
    const plan = planMonitor(ctx('websocket'), null, { hostname: 'Live.Example.com' });
    expect(plan.state).to.include({ monitoringType: 'websocket', hostname: 'live.example.com', port: null, checkMode: null });
    expect(plan.state.config).to.deep.equal({ transport: 'tls', path: '/', message: null, expectedMessage: null });
    expect(plan.targets).to.deep.equal([{ field: 'hostname', host: 'live.example.com' }]);
    const changed = planMonitor(ctx('websocket'), plan.state, { transport: 'plain', message: 'ping', expectedMessage: 'pong' });
    expect(changed.state.config).to.deep.equal({ transport: 'plain', path: '/', message: 'ping', expectedMessage: 'pong' });
    expect(changed.credentials).to.deep.equal({ kind: 'keep' });
  });
});

describe('planning a gRPC monitor', () => {
  it('needs a port (gRPC has no well-known one), asks the server as a whole over TLS by default', () => {
    expectAppError(() => planMonitor(ctx('grpc'), null, { hostname: 'api.example.com' }), 'portRequiredForTcp');
    const plan = planMonitor(ctx('grpc'), null, { hostname: 'API.example.com', port: 50051 });
    expect(plan.state).to.include({ monitoringType: 'grpc', hostname: 'api.example.com', port: 50051, checkMode: null });
    expect(plan.state.config).to.deep.equal({ transport: 'tls', serviceName: '' });
    const changed = planMonitor(ctx('grpc'), plan.state, { transport: 'plain', serviceName: 'shop.Checkout' });
    expect(changed.state.config).to.deep.equal({ transport: 'plain', serviceName: 'shop.Checkout' });
  });
});

describe('planning an MQTT monitor', () => {
  it('is a service: protocol mode with an optional login, over TLS by default; tcp mode drops the login', () => {
    const login = { username: 'probe', password: 'p' };
    const plan = planMonitor(ctx('mqtt'), null, { hostname: 'Broker.example.com', credentials: login, topic: 'plant/+/status' });
    expect(plan.state).to.include({ monitoringType: 'mqtt', hostname: 'broker.example.com', port: null, checkMode: 'protocol' });
    expect(plan.state.config).to.deep.equal({ transport: 'tls', topic: 'plant/+/status', expectedMessage: null });
    expect(plan.credentials).to.deep.equal({ kind: 'set', value: login });
    const tcp = planMonitor(ctx('mqtt'), plan.state, { checkMode: 'tcp' });
    expect(tcp.credentials).to.deep.equal({ kind: 'clear' });
  });
});

describe('planning an SNMP monitor', () => {
  it('needs an OID, defaults to v2c on port 161 and any value; its login is stored, and it has no bare TCP port check', () => {
    expectAppError(() => planMonitor(ctx('snmp'), null, { hostname: 'switch.example.com' }), 'validationFailed');
    const login = { username: 'probe', password: 'auth-key', privateKey: 'priv-key' };
    const plan = planMonitor(ctx('snmp'), null, { hostname: 'Switch.example.com', oid: '1.3.6.1.2.1.1.3.0', credentials: login });
    expect(plan.state).to.include({ monitoringType: 'snmp', hostname: 'switch.example.com', port: null, checkMode: 'protocol' });
    expect(plan.state.config).to.deep.equal({
      snmpVersion: 'v2c',
      oid: '1.3.6.1.2.1.1.3.0',
      expectedValue: null,
      comparison: 'equals',
      authProtocol: 'sha',
      privProtocol: 'aes',
    });
    expect(plan.credentials).to.deep.equal({ kind: 'set', value: login });
    expectAppError(() => planMonitor(ctx('snmp'), plan.state, { checkMode: 'tcp' }), 'invalidCheckMode', { allowed: ['protocol'] });
  });
});
