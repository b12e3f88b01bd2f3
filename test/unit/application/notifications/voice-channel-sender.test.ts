import { expect } from 'chai';
import { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import { normalizeChannelConfig } from '../../../../src/domain/notifications/channel-config';
import {
  VOICE_TEXT_MAX,
  voiceContent,
  voiceTwiml,
  type NotificationMessage,
} from '../../../../src/domain/notifications/notification-message';
import { VoiceChannelSender } from '../../../../src/application/notifications/voice-channel-sender';
import type { SmsSendOutcome, VoiceProvider } from '../../../../src/application/notifications/ports';
import { expectAppError } from '../../../support/expect-app-error';

const message: NotificationMessage = {
  id: 'd-1',
  event: 'incident.opened',
  occurredAt: '2026-12-01T09:59:00.000Z',
  summary: 'shop.example.com is down',
  incidentId: 'inc-1',
  monitorId: 100,
  customerId: 10,
  data: {},
};

const aVoiceChannel = (phoneNumbers: string[]) =>
  new NotificationChannel({
    publicId: 'ch-1',
    organizationId: 1,
    scope: { customerId: 10, monitorId: null, sourceChannelId: null },
    name: 'on-call phones',
    type: 'voice',
    config: { phoneNumbers },
    now: new Date('2026-12-01T00:00:00Z'),
  });

const outcome = (over: Partial<SmsSendOutcome>): SmsSendOutcome => ({
  verdict: 'delivered',
  statusCode: 201,
  responseExcerpt: null,
  retryAfterMs: null,
  error: null,
  latencyMs: 5,
  messageId: 'CA1',
  ...over,
});

/** A provider answering from a script per number (taken by default), recording each call. */
class ScriptedVoiceProvider implements VoiceProvider {
  readonly calls: { to: string; twiml: string }[] = [];
  constructor(private readonly answers: Record<string, Partial<SmsSendOutcome>> = {}) {}
  call(to: string, twiml: string): Promise<SmsSendOutcome> {
    this.calls.push({ to, twiml });
    return Promise.resolve(outcome({ messageId: `CA-${to}`, ...this.answers[to] }));
  }
}

describe('voice channels: a call per number saying the message (voice-channel-sender.ts)', () => {
  it('takes E.164 numbers, each once, as the SMS type does', () => {
    expect(normalizeChannelConfig('voice', { phoneNumbers: ['+14155550100', '+14155550100'] })).to.deep.equal({
      phoneNumbers: ['+14155550100'],
    });
    expectAppError(() => normalizeChannelConfig('voice', { phoneNumbers: ['0301234567'] }), 'invalidRequestBody', {
      field: 'config.phoneNumbers.0',
      reason: 'notE164',
    });
    expectAppError(() => normalizeChannelConfig('voice', { phoneNumbers: [] }), 'invalidRequestBody', { field: 'config.phoneNumbers' });
  });

  it('says the title and summary, short, twice, as escaped TwiML', () => {
    expect(voiceContent(message)).to.equal('Incident opened: shop.example.com is down');
    expect(voiceTwiml('R&D <lab> "down"')).to.equal(
      '<Response><Say>R&amp;D &lt;lab&gt; &quot;down&quot;</Say><Pause length="1"/><Say>R&amp;D &lt;lab&gt; &quot;down&quot;</Say></Response>',
    );
    const long = voiceContent({ ...message, summary: 'x '.repeat(2000) });
    expect(long.length).to.be.at.most(VOICE_TEXT_MAX);
    expect(long.endsWith('...')).to.equal(true);
    // Twilio takes at most 4000 characters of TwiML: the longest text, all of it escaped, fits.
    expect(voiceTwiml('&'.repeat(VOICE_TEXT_MAX)).length).to.be.below(4000);
  });

  it('calls every number with the same TwiML; delivered when the provider took every call', async () => {
    const provider = new ScriptedVoiceProvider();
    const sent = await new VoiceChannelSender(provider).send(aVoiceChannel(['+14155550100', '+14155550101']), message);
    expect(provider.calls.map((c) => c.to)).to.deep.equal(['+14155550100', '+14155550101']);
    expect(provider.calls[0]!.twiml).to.equal(voiceTwiml('Incident opened: shop.example.com is down'));
    expect(sent).to.include({ verdict: 'delivered', statusCode: 201, error: null });
    expect(sent.responseExcerpt).to.equal('+14155550100: CA-+14155550100\n+14155550101: CA-+14155550101');
  });

  it('retries when any call may be placed later (the longest Retry-After), refuses when none can', async () => {
    const busy = new ScriptedVoiceProvider({
      '+14155550101': { verdict: 'retry', statusCode: 429, retryAfterMs: 2000, error: 'Twilio 20429: Too Many Requests', messageId: null },
    });
    const retried = await new VoiceChannelSender(busy).send(aVoiceChannel(['+14155550100', '+14155550101']), message);
    expect(retried).to.include({ verdict: 'retry', statusCode: 429, retryAfterMs: 2000 });
    expect(retried.error).to.equal('1 of 2 calls not placed: Twilio 20429: Too Many Requests');

    const refused = new ScriptedVoiceProvider({
      '+14155550100': { verdict: 'rejected', statusCode: 400, error: 'Twilio 21215: Geo permission', messageId: null },
    });
    expect(await new VoiceChannelSender(refused).send(aVoiceChannel(['+14155550100']), message)).to.include({
      verdict: 'rejected',
      statusCode: 400,
    });
  });
});
