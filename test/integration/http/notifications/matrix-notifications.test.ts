import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { MatrixReceiver } from '../../../support/peers/matrix-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

const HOST = 'matrix.homeserver-fixture.com';
const TOKEN = 'syt_Ym90_0123456789abcdefghij_0aBcDe';

let counter = 0;
const aRoom = () => `!r${Date.now().toString(36)}${++counter}:homeserver-fixture.com`;

/**
 * The matrix channel type end to end: created over the API, its test message sent through the ledger
 * as a PUT to a loopback homeserver's send endpoint checking the documented request (bearer token,
 * m.room.message, m.text with HTML), through the target policy; a retry sends the same transaction.
 */
describe('matrix channels (a loopback homeserver)', () => {
  const matrix = new MatrixReceiver(HOST);
  let service: DeliveryService;
  const api = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>) => api.createChannel(token, 'matrix', config, 'Ops room');

  before(async () => {
    await matrix.start();
    service = await aDeliveryService([HOST], { NOTIFY_RETRY_MAX_MS: '200' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await matrix.stop();
  });

  it('PUTs the test message to the room’s send endpoint with the bearer token, the delivery’s id as txnId', async () => {
    const room = aRoom();
    matrix.protect(room, TOKEN);
    const org = await anOrganization('matrix-test');
    const channel = await aChannel(org.token, { url: matrix.url(), roomId: room, accessToken: TOKEN, messagePrefix: '<prod>' });
    expect(channel.config).to.deep.equal({ url: matrix.url(), roomId: room, accessToken: TOKEN, messagePrefix: '<prod>' });

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'matrix', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 200 });

    const [sent, ...more] = matrix.at(room);
    expect(more).to.deep.equal([]);
    expect(sent!.problems).to.deep.equal([]);
    expect(sent!.method).to.equal('PUT');
    expect(sent!.path).to.equal(`/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/${queued.id}`);
    expect(sent!.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(sent!.body).to.deep.include({ msgtype: 'm.text', format: 'org.matrix.custom.html' });
    expect(sent!.body!.body).to.match(/^<prod> Test notification\nThis is a test notification for the channel "Ops room"/);
    expect(sent!.body!.formatted_body).to.match(/^<strong>&lt;prod&gt; Test notification<\/strong><br>This is a test notification/);
    expect(await api.attemptsListed(org.token, channel.publicId)).to.deep.equal([
      { status: 'delivered', attempts: [[1, 200, 'delivered']] },
    ]);
  });

  it('records a 401 (M_UNKNOWN_TOKEN) as a refusal, at once, in the ledger and the channel’s health', async () => {
    const room = aRoom();
    matrix.protect(room, TOKEN);
    const org = await anOrganization('matrix-401');
    const channel = await aChannel(org.token, { url: matrix.url(), roomId: room, accessToken: 'syt_wrong' });
    await api.expectFailedAtOnce(org.token, channel, 401);
  });

  it('retries a 429 (M_LIMIT_EXCEEDED, Retry-After) with the same transaction id, so the room gets one event', async () => {
    const room = aRoom();
    matrix.answer(room, {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too many requests', retry_after_ms: 1000 },
    });
    const org = await anOrganization('matrix-429');
    const channel = await aChannel(org.token, { url: matrix.url(), roomId: room, accessToken: TOKEN });
    const queued = await api.expectRetriedAfter429(org.token, channel, 200, 'matrix-429-worker');
    expect(matrix.transactionsOf(room)).to.deep.equal([queued.id, queued.id]);
    expect(matrix.at(room).flatMap((r) => r.problems)).to.deep.equal([]);
  });

  it('records a 404 (a room the homeserver does not know) as a refusal', async () => {
    const room = aRoom();
    matrix.answer(room, { status: 404, body: { errcode: 'M_NOT_FOUND', error: 'Unknown room' } });
    const org = await anOrganization('matrix-404');
    const channel = await aChannel(org.token, { url: matrix.url(), roomId: room, accessToken: TOKEN });
    await api.expectFailedAtOnce(org.token, channel, 404);
  });

  it('refuses a room alias over the API, naming config.roomId', async () => {
    const org = await anOrganization('matrix-refuse');
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'matrix', config: { url: matrix.url(), roomId: '#ops:homeserver-fixture.com', accessToken: TOKEN } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ field: '/config/roomId', reason: 'notARoomId' });
  });
});
