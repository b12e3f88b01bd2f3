import { expect } from 'chai';
import { ImportDraft } from '../../../src/interfaces/cli/import/shared';
import { EMPTY_KUMA } from '../../support/kuma-data';
import { mapKuma, type Row } from '../../../src/interfaces/cli/import/uptime-kuma';
import { fromLive } from '../../../src/interfaces/cli/import/uptime-kuma-live';

const GENIE_KEY = '3f2a9c1e-7b4d-4e8a-9c2b-1d5e6f7a8b9c';

function imported(monitors: Row[], notifications: Row[] = []): ImportDraft {
  const draft = new ImportDraft();
  mapKuma(
    { ...EMPTY_KUMA, monitors: monitors.map((m, i) => ({ id: i + 1, name: `m${i + 1}`, interval: 60, active: 1, ...m })), notifications },
    draft,
  );
  return draft;
}

const only = (draft: ImportDraft) => {
  expect(draft.unmapped, 'unmapped').to.deep.equal([]);
  expect(draft.monitors).to.have.length(1);
  return draft.monitors[0]!;
};

describe('wsm import: Uptime Kuma protocol monitors as kinds', () => {
  it('reads a PostgreSQL connection string: host, port, database, TLS and the query; the login as references', () => {
    const m = only(
      imported([
        {
          type: 'postgres',
          database_connection_string: 'postgres://shop:s%40cret@db.example.com:5433/orders?sslmode=verify-ca',
          database_query: ' SELECT count(*) FROM orders ',
        },
      ]),
    );
    expect(m).to.deep.include({ kind: 'postgres', hostname: 'db.example.com', port: 5433, database: 'orders', sslMode: 'verify-full' });
    expect(m.query).to.equal('SELECT count(*) FROM orders');
    expect(m.credentials).to.deep.equal({ username: '${env:WSM_UPTIME_KUMA_1_USERNAME}', password: '${env:WSM_UPTIME_KUMA_1_PASSWORD}' });
    expect(JSON.stringify(m)).not.to.include('s@cret');
  });

  it('reads MySQL and Redis strings (rediss:// is TLS), and lists a string with no host as unmapped', () => {
    const draft = imported([
      { type: 'mysql', database_connection_string: 'mysql://app:pw@mysql.example.com/app' },
      { type: 'redis', database_connection_string: 'rediss://:pw@cache.example.com:6380' },
      { type: 'postgres', database_connection_string: 'host=/var/run/postgresql user=x' },
    ]);
    expect(draft.monitors[0]).to.deep.include({ kind: 'mysql', hostname: 'mysql.example.com', database: 'app' });
    expect(draft.monitors[0]).not.to.have.property('port');
    expect(draft.monitors[1]).to.deep.include({ kind: 'redis', hostname: 'cache.example.com', port: 6380, sslMode: 'require' });
    expect(draft.unmapped).to.have.length(1);
    expect(draft.unmapped[0]).to.include('m3 (3, postgres)').and.include('not a URL with a host');
  });

  it('maps MQTT as Uptime Kuma dials it (plain unless mqtts://), its topic, expected message and login', () => {
    const m = only(
      imported([
        {
          type: 'mqtt',
          hostname: 'mqtt://broker.example.com',
          port: 1883,
          mqtt_topic: 'plant/1',
          mqtt_success_message: 'ok',
          mqtt_username: 'u',
          mqtt_password: 'p',
        },
      ]),
    );
    expect(m).to.deep.include({
      kind: 'mqtt',
      hostname: 'broker.example.com',
      port: 1883,
      transport: 'plain',
      topic: 'plant/1',
      expectedMessage: 'ok',
    });
    expect(m.credentials).to.have.keys('username', 'password');
    const tls = only(imported([{ type: 'mqtt', hostname: 'mqtts://broker.example.com', port: 8883 }]));
    expect(tls).to.deep.include({ transport: 'tls' });
    expect(tls).not.to.have.property('credentials');
  });

  it('maps gRPC to the health check with a note, SNMP v2c and v3, WebSocket, and refuses SNMP v1', () => {
    const draft = imported([
      {
        type: 'grpc-keyword',
        grpc_url: 'api.example.com:50051',
        grpc_service_name: 'shop.Checkout',
        grpc_enable_tls: 0,
        grpc_method: 'Check',
      },
      {
        type: 'snmp',
        hostname: 'switch.example.com',
        port: 161,
        snmp_version: '2c',
        snmp_oid: '1.3.6.1.2.1.1.3.0',
        radius_password: 'priv',
        json_path_operator: '>',
        expected_value: '100',
      },
      { type: 'snmp', hostname: 'ups.example.com', snmp_version: '3', snmp_oid: '1.3.6.1.2.1.1.1.0', snmp_v3_username: 'mon' },
      { type: 'snmp', hostname: 'old.example.com', snmp_version: '1', snmp_oid: '1.3.6.1.2.1.1.1.0' },
      { type: 'websocket-upgrade', url: 'ws://live.example.com:8080/socket?x=1' },
    ]);
    const [grpc, v2c, v3, ws] = draft.monitors;
    expect(grpc).to.deep.include({
      kind: 'grpc',
      hostname: 'api.example.com',
      port: 50051,
      transport: 'plain',
      serviceName: 'shop.Checkout',
    });
    expect(draft.notes.join('\n')).to.include('m1 (1, grpc-keyword): Uptime Kuma called Check');
    expect(v2c).to.deep.include({ kind: 'snmp', snmpVersion: 'v2c', oid: '1.3.6.1.2.1.1.3.0', expectedValue: '100', comparison: 'above' });
    expect(v2c!.credentials).to.deep.equal({
      username: 'public',
      password: '${env:WSM_UPTIME_KUMA_2_PASSWORD}',
    });
    expect(v3).to.deep.include({ snmpVersion: 'v3', authProtocol: 'none', privProtocol: 'none' });
    expect(v3!.credentials).to.deep.equal({ username: '${env:WSM_UPTIME_KUMA_3_USERNAME}' });
    expect(draft.unmapped).to.deep.equal(['monitor m4 (4, snmp): SNMP v1 is not checked here (v2c and v3 are)']);
    expect(ws).to.deep.include({ kind: 'websocket', hostname: 'live.example.com', port: 8080, transport: 'plain', path: '/socket?x=1' });
  });

  it("maps the alerting tools' notifications to their channel types, secrets as references", () => {
    const draft = imported(
      [],
      [
        { id: 1, name: 'Genie', active: 1, config: JSON.stringify({ type: 'Opsgenie', opsgenieApiKey: GENIE_KEY, opsgenieRegion: 'eu' }) },
        {
          id: 2,
          name: 'Push',
          active: 1,
          config: JSON.stringify({ type: 'pushover', pushoverapptoken: 'a'.repeat(30), pushoveruserkey: 'u'.repeat(30) }),
        },
        {
          id: 3,
          name: 'Got',
          active: 1,
          config: JSON.stringify({ type: 'gotify', gotifyserverurl: 'https://push.example.com', gotifyapplicationToken: 'Axyz' }),
        },
        {
          id: 4,
          name: 'Mm',
          active: 1,
          config: JSON.stringify({ type: 'mattermost', mattermostWebhookUrl: 'https://mm.example.com/hooks/x', mattermostchannel: 'ops' }),
        },
        {
          id: 5,
          name: 'Chat',
          active: 1,
          config: JSON.stringify({ type: 'GoogleChat', googleChatWebhookURL: 'https://chat.example.com/v1/spaces/A/messages?key=k' }),
        },
        {
          id: 6,
          name: 'Mx',
          active: 1,
          config: JSON.stringify({
            type: 'matrix',
            homeserverUrl: 'https://matrix.example.com',
            internalRoomId: '!r:example.com',
            accessToken: 't',
          }),
        },
      ],
    );
    expect(draft.unmapped).to.deep.equal([]);
    expect(draft.channels.map((c) => c.type)).to.deep.equal(['opsgenie', 'pushover', 'gotify', 'mattermost', 'google-chat', 'matrix']);
    const written = JSON.stringify(draft.channels);
    for (const secret of [GENIE_KEY, 'a'.repeat(30), 'Axyz', 'hooks/x', 'key=k', '"t"']) expect(written).not.to.include(secret);
    expect(draft.channels[0]!.config).to.deep.include({ url: 'https://api.eu.opsgenie.com/' });
    expect(draft.channels[3]!.config).to.deep.include({ channel: 'ops' });
  });

  it('reads the same settings from a running instance (toJSON camelCase, sensitive fields sent to the logged-in user)', () => {
    const draft = new ImportDraft();
    const live = [
      { id: 7, name: 'Cache', type: 'redis', interval: 60, active: true, databaseConnectionString: 'redis://:pw@cache.example.com:6379' },
      {
        id: 8,
        name: 'Rpc',
        type: 'grpc-keyword',
        interval: 60,
        active: true,
        grpcUrl: 'rpc.example.com:443',
        grpcEnableTls: true,
        grpcServiceName: '',
      },
      {
        id: 9,
        name: 'Sw',
        type: 'snmp',
        interval: 60,
        active: true,
        hostname: 'sw.example.com',
        snmpVersion: '2c',
        snmpOid: '1.3.6.1.2.1.1.3.0',
        radiusPassword: 'c',
      },
    ];
    mapKuma(fromLive(live, []), draft);
    expect(draft.unmapped).to.deep.equal([]);
    expect(draft.monitors.map((m) => [m.kind, m.hostname])).to.deep.equal([
      ['redis', 'cache.example.com'],
      ['grpc', 'rpc.example.com'],
      ['snmp', 'sw.example.com'],
    ]);
    expect(draft.monitors[1]).to.deep.include({ transport: 'tls', port: 443 });
    expect(draft.monitors[2]!.credentials).to.have.property('password');
  });
});
