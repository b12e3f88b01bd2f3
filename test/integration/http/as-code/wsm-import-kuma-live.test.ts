import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer } from 'ws';
import { api } from '../../../support/http-client';
import { wsm } from '../../../support/wsm';
import { anOrganizationForImport, importApplyTwice } from '../../../support/wsm-import';

/**
 * wsm import uptime-kuma --url: against a loopback server speaking what socket.io-client speaks
 * (Engine.IO v4 over a WebSocket at /socket.io/, Socket.IO v5 packets: 0 open, 40 connect,
 * 42 event, 43 ack) and doing what Uptime Kuma's server does on `login` (server/server.js: check the
 * user, answer {ok, token} through the ack, then afterLogin emits monitorList, keyed by id, each a
 * Monitor.toJSON(), and notificationList, the notification rows).
 */

const MONITORS = {
  1: {
    id: 1,
    name: 'Shop',
    type: 'keyword',
    url: 'https://www.monitor-fixture.com/',
    method: 'GET',
    interval: 120,
    retryInterval: 60,
    maxretries: 1,
    timeout: 24,
    keyword: 'Welcome',
    invertKeyword: false,
    upsideDown: false,
    ignoreTls: false,
    maxredirects: 10,
    accepted_statuscodes: ['200-299'],
    active: true,
    tags: [{ tag_id: 3, monitor_id: 1, value: '', name: 'Web', color: '#2563EB' }],
    notificationIDList: { 5: true },
  },
  2: {
    id: 2,
    name: 'Mail',
    type: 'port',
    hostname: 'mail.monitor-fixture.com',
    port: 587,
    interval: 60,
    maxretries: 0,
    timeout: 48,
    active: false,
    tags: [],
    notificationIDList: {},
  },
  3: { id: 3, name: 'Kafka', type: 'kafka-producer', interval: 60, active: true, tags: [], notificationIDList: {} },
};

const NOTIFICATIONS = [
  {
    id: 5,
    name: 'Ops mail',
    config: JSON.stringify({ name: 'Ops mail', type: 'smtp', smtpTo: 'ops@example.com' }),
    active: true,
    isDefault: false,
    userId: 1,
  },
];

async function aKuma(): Promise<{ url: string; logins: unknown[]; close: () => Promise<void> }> {
  const logins: unknown[] = [];
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server, path: '/socket.io/' });
  wss.on('connection', (socket, req) => {
    expect(req.url).to.match(/^\/socket\.io\/\?EIO=4&transport=websocket/);
    socket.send(`0${JSON.stringify({ sid: 'e1', upgrades: [], pingInterval: 25000, pingTimeout: 20000, maxPayload: 1000000 })}`);
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === '40') return socket.send(`40${JSON.stringify({ sid: 's1' })}`);
      const event = /^42(\d+)(\[.*)$/s.exec(text);
      if (!event) return;
      const [name, body] = JSON.parse(event[2]!) as [string, { username: string; password: string }];
      if (name !== 'login') return;
      logins.push(body);
      if (body.username !== 'admin' || body.password !== 'kuma-pass')
        return socket.send(`43${event[1]}${JSON.stringify([{ ok: false, msg: 'authIncorrectCreds', msgi18n: true }])}`);
      socket.send(`42${JSON.stringify(['monitorList', MONITORS])}`);
      socket.send(`42${JSON.stringify(['notificationList', NOTIFICATIONS])}`);
      socket.send(`43${event[1]}${JSON.stringify([{ ok: true, token: 'jwt' }])}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logins,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('wsm import uptime-kuma from a running instance (Socket.IO)', () => {
  it('logs in, maps monitorList and notificationList, and a second import plans no change', async () => {
    const { token, customer } = await anOrganizationForImport('wsm-import-kuma-live');
    const kuma = await aKuma();
    try {
      const refused = await wsm(['import', 'uptime-kuma', '--url', kuma.url], {
        token,
        env: { UPTIME_KUMA_USERNAME: 'admin', UPTIME_KUMA_PASSWORD: 'no' },
      });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.include('login refused: authIncorrectCreds');

      const env = { UPTIME_KUMA_USERNAME: 'admin', UPTIME_KUMA_PASSWORD: 'kuma-pass' };
      const { text, stderr } = await importApplyTwice(['uptime-kuma', '--url', kuma.url, '--customer', customer], token, env);
      expect(kuma.logins).to.deep.include({ username: 'admin', password: 'kuma-pass', token: '' });
      expect(text).to.include('key: uptime-kuma/1').and.include('key: uptime-kuma/notification/5').and.include('name: Web');
      expect(stderr).to.include("not mapped: monitor Kafka (3, kafka-producer): Uptime Kuma's kafka-producer monitors have no kind here");
      const tcp = (await api('GET', '/api/monitors/tcp', { token })).body.items[0];
      expect(tcp).to.include({ key: 'uptime-kuma/2', port: 587, status: 'paused', timeoutSeconds: 48 });
    } finally {
      await kuma.close();
    }
  });
});
