import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { channelApi } from '../../../support/channel-api';
import { TeamsWorkflowsReceiver } from '../../../support/peers/teams-workflows-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';

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
  const api = channelApi(() => service);
  const aChannel = (token: string, config: Record<string, unknown>) => api.createChannel(token, 'teams-workflows', config, 'Ops');

  before(async () => {
    await teams.start();
    service = await aDeliveryService([HOST], { NOTIFY_RETRY_MAX_MS: '200' });
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

    const queued = await api.sendTest(org.token, channel);
    expect(queued).to.deep.include({ channelType: 'teams-workflows', event: 'test', status: 'delivered' });
    expect(queued.attempt).to.include({ statusCode: 202 });

    const [posted, ...more] = teams.at(workflow);
    expect(more).to.deep.equal([]);
    expect(posted!.problems).to.deep.equal([]);
    expect(posted!.method).to.equal('POST');
    const attachment = (posted!.body!.attachments as Array<Record<string, any>>)[0]!;
    expect(attachment).to.deep.include({ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null });
    expect(attachment.content).to.deep.include({ type: 'AdaptiveCard', version: '1.4' });
    expect(attachment.content.body[0]).to.deep.include({ type: 'TextBlock', text: '[prod] Test notification' });
    expect(attachment.content.body[1].text).to.match(/^This is a test notification for the channel "Ops"/);
    expect(await api.attemptsListed(org.token, channel.publicId)).to.deep.equal([
      { status: 'delivered', attempts: [[1, 202, 'delivered']] },
    ]);
  });

  it('records a 401 (a wrong signature) as a refusal, at once, in the ledger and the channel’s health', async () => {
    const workflow = aWorkflow();
    teams.protect(workflow, SIG);
    const org = await anOrganization('teams-workflows-401');
    const channel = await aChannel(org.token, { url: teams.workflowUrl(workflow, 'not-the-signature') });
    await api.expectFailedAtOnce(org.token, channel, 401);
    expect(teams.at(workflow)).to.have.length(1);
  });

  it('retries a 429 (Retry-After), every attempt in the ledger', async () => {
    const workflow = aWorkflow();
    teams.answer(workflow, { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'WorkflowTriggerIsThrottled' } } });
    const org = await anOrganization('teams-workflows-429');
    const channel = await aChannel(org.token, { url: teams.workflowUrl(workflow, SIG) });
    await api.expectRetriedAfter429(org.token, channel, 202, 'teams-workflows-429-worker');
    expect(teams.at(workflow).flatMap((r) => r.problems)).to.deep.equal([]);
  });

  it('refuses a URL on a private address, naming config.url', async () => {
    const org = await anOrganization('teams-workflows-refuse');
    const refused = await api.call('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'teams-workflows', config: { url: 'http://10.1.2.3/workflows/x' } },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ field: '/config/url' });
  });
});
