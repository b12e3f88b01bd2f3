import { expect } from 'chai';
import { apiAt } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { TeamsWorkflowsReceiver } from '../../../support/peers/teams-workflows-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import type { RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOST = 'prod-01.workflows-fixture.com';
const SIG = 'x8FQ0mRbWJ7gJ3nL5kT2pV9cY1dZ6aH4sE0uI7oK3wM';

let counter = 0;
const aWorkflow = () => `${Date.now().toString(16)}${(++counter).toString(16).padStart(4, '0')}`;

/**
 * The teams-workflows channel type end to end: created over the API, its test message sent by the
 * test button through the ledger to a loopback Workflows webhook that checks the documented message
 * with its Adaptive Card, reached through the target policy (its name resolves to 127.0.0.1).
 */
describe('teams-workflows channels (a loopback Workflows webhook)', () => {
  const teams = new TeamsWorkflowsReceiver(HOST);
  let service: DeliveryService;
  let app: RunningApplication;

  const call = (method: string, path: string, options: Parameters<typeof apiAt>[3] = {}) => apiAt(app.url, method, path, options);
  async function aChannel(token: string, config: Record<string, unknown>): Promise<Record<string, any>> {
    const created = await call('POST', '/api/notification-channels', { token, body: { name: 'Ops', type: 'teams-workflows', config } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body;
  }
  const deliveryOf = async (id: string) =>
    (await app.database.sql.query<Record<string, any>>(sql`SELECT * FROM notification_deliveries WHERE id = ${id}`))[0];
  const attemptsListed = async (token: string, channelId: string) => {
    const listed = await call('GET', `/api/notification-deliveries?channelId=${channelId}`, { token });
    return listed.body.items.map((d: Record<string, any>) => ({
      status: d.status,
      attempts: d.attempts.map((a: Record<string, unknown>) => [a.attempt, a.statusCode, a.outcome]),
    }));
  };

  before(async () => {
    await teams.start();
    service = await aDeliveryService([HOST], { NOTIFY_RETRY_MAX_MS: '200' });
    app = service.app;
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await teams.stop();
  });

  it('posts the test message as a message with one Adaptive Card to the signed URL, answered 202', async () => {
    const workflow = aWorkflow();
    teams.protect(workflow, SIG);
    const org = await anOrganization('teams-workflows-test');
    const url = teams.workflowUrl(workflow, SIG);
    const channel = await aChannel(org.token, { url, messagePrefix: '[prod]' });
    expect(channel.config).to.deep.equal({ url, messagePrefix: '[prod]' });

    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    expect(queued.body).to.deep.include({ channelType: 'teams-workflows', event: 'test', status: 'delivered' });
    expect(queued.body.attempt).to.include({ statusCode: 202 });

    const [posted, ...more] = teams.at(workflow);
    expect(more).to.deep.equal([]);
    expect(posted!.problems).to.deep.equal([]);
    expect(posted!.method).to.equal('POST');
    const attachment = (posted!.body!.attachments as Array<Record<string, any>>)[0]!;
    expect(attachment).to.deep.include({ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null });
    expect(attachment.content).to.deep.include({ type: 'AdaptiveCard', version: '1.4' });
    expect(attachment.content.body[0]).to.deep.include({ type: 'TextBlock', text: '[prod] Test notification' });
    expect(attachment.content.body[1].text).to.match(/^This is a test notification for the channel "Ops"/);
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([{ status: 'delivered', attempts: [[1, 202, 'delivered']] }]);
  });

  it('records a 401 (a wrong signature) as a refusal, at once, in the ledger and the channel’s health', async () => {
    const workflow = aWorkflow();
    teams.protect(workflow, SIG);
    const org = await anOrganization('teams-workflows-401');
    const channel = await aChannel(org.token, { url: teams.workflowUrl(workflow, 'not-the-signature') });
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.body).to.deep.include({ status: 'failed' });
    expect(queued.body.attempt).to.include({ statusCode: 401 });
    expect(await deliveryOf(queued.body.id)).to.include({ status: 'failed', attempts: 1, last_error: 'Answered 401' });
    expect((await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.health).to.include({
      consecutiveFailures: 1,
      lastFailureReason: 'Answered 401',
    });
    expect(teams.at(workflow)).to.have.length(1);
  });

  it('retries a 429 (Retry-After), every attempt in the ledger', async () => {
    const workflow = aWorkflow();
    teams.answer(workflow, { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'WorkflowTriggerIsThrottled' } } });
    const org = await anOrganization('teams-workflows-429');
    const channel = await aChannel(org.token, { url: teams.workflowUrl(workflow, SIG) });
    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.body).to.deep.include({ status: 'retry' });
    service.worker('teams-workflows-429-worker');
    await waitFor(async () => (await deliveryOf(queued.body.id))?.status === 'delivered', { what: 'delivered after the 429' });
    expect(await attemptsListed(org.token, channel.publicId)).to.deep.equal([
      {
        status: 'delivered',
        attempts: [
          [1, 429, 'retry'],
          [2, 202, 'delivered'],
        ],
      },
    ]);
    expect(teams.at(workflow).flatMap((r) => r.problems)).to.deep.equal([]);
  });

  it('refuses a URL on a private address, naming config.url', async () => {
    const org = await anOrganization('teams-workflows-refuse');
    const refused = await call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'teams-workflows', config: { url: 'http://10.1.2.3/workflows/x' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ field: '/config/url' });
  });
});
