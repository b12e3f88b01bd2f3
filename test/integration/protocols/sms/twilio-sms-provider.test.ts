import { expect } from 'chai';
import { TwilioPeer, twilioError } from '../../../support/peers/twilio-peer';
import { FakeTargetPolicy } from '../../../support/fakes/shared-fakes';
import { TwilioSmsProvider } from '../../../../src/infrastructure/notifications/twilio-sms-provider';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import { PinnedHttpPool } from '../../../../src/infrastructure/protocols/http/pinned-http-pool';

const HOST = 'api.twilio-peer.com';
const SID = 'ACfeedfacefeedfacefeedfacefeedface';

/**
 * The Twilio adapter against a loopback Twilio-shaped server. The target policy answers the vetted
 * address (127.0.0.1) for the peer's name, which resolves nowhere here: reaching the peer proves the
 * vetted address is the one dialled.
 */
describe('Twilio SMS provider (TwilioSmsProvider)', () => {
  const peer = new TwilioPeer(HOST, SID);
  // the vetted address is judged again as it is dialled
  const policy = new FakeTargetPolicy((address) => address === '127.0.0.1');
  const pool = new PinnedHttpPool(policy, new SharedTlsContext([]), { socketsPerOrigin: 4, origins: 10 });
  const provider = (baseUrl = peer.baseUrl) =>
    new TwilioSmsProvider(
      pool,
      { baseUrl, accountSid: SID, authToken: 'tok', from: '+15005550006' },
      'monitor-test',
      5_000,
      () => new Date(),
    );

  before(async () => {
    await peer.start();
    policy.verdicts.set(HOST, { ok: true, hostname: HOST, addresses: ['127.0.0.1'] });
  });
  after(async () => {
    pool.close();
    await peer.stop();
  });

  it('posts To/From/Body with basic auth to the vetted address and answers the message sid', async () => {
    const outcome = await provider().send('+14155550100', 'Incident opened: shop is down');
    expect(outcome).to.include({ verdict: 'delivered', statusCode: 201, error: null, messageId: 'SM00000000000000000000000000000001' });
    expect(peer.to('+14155550100')).to.deep.equal([
      {
        path: `/2010-04-01/Accounts/${SID}/Messages.json`,
        authorization: `Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`,
        form: { To: '+14155550100', From: '+15005550006', Body: 'Incident opened: shop is down' },
      },
    ]);
  });

  it('a 429 with Retry-After is worth another try, a 400 error code is final, a non-JSON 502 is retried by its status', async () => {
    peer.answer('+14155550101', { ...twilioError(429, 20429, 'Too Many Requests'), headers: { 'retry-after': '7' } });
    expect(await provider().send('+14155550101', 'x')).to.include({
      verdict: 'retry',
      statusCode: 429,
      retryAfterMs: 7_000,
      error: 'Twilio 20429: Too Many Requests',
      messageId: null,
    });
    peer.answer('+14155550102', twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'));
    expect(await provider().send('+14155550102', 'x')).to.include({
      verdict: 'rejected',
      statusCode: 400,
      error: 'Twilio 21610: Attempt to send to unsubscribed recipient',
    });
    peer.answer('+14155550103', { status: 502, body: '<html>Bad Gateway</html>' });
    expect(await provider().send('+14155550103', 'x')).to.include({
      verdict: 'retry',
      statusCode: 502,
      error: 'Answered 502',
      responseExcerpt: '<html>Bad Gateway</html>',
    });
  });

  it('places a call through the Calls API: To/From/Twiml with basic auth, answering the call sid; an error code is final', async () => {
    const twiml = '<Response><Say>Incident opened: R&amp;D is down</Say></Response>';
    const outcome = await provider().call('+14155550105', twiml);
    expect(outcome).to.include({ verdict: 'delivered', statusCode: 201, error: null });
    expect(outcome.messageId).to.match(/^CA\d{32}$/);
    expect(peer.to('+14155550105')).to.deep.equal([
      {
        path: `/2010-04-01/Accounts/${SID}/Calls.json`,
        authorization: `Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`,
        form: { To: '+14155550105', From: '+15005550006', Twiml: twiml },
      },
    ]);
    expect(peer.rejected).to.deep.equal([]);
    peer.answer('+14155550106', twilioError(400, 21215, 'Geo permission configuration is not permitting call'));
    expect(await provider().call('+14155550106', twiml)).to.include({
      verdict: 'rejected',
      error: 'Twilio 21215: Geo permission configuration is not permitting call',
    });
  });

  it('a provider URL the target policy refuses fails for good, connecting nowhere', async () => {
    const before = peer.requests.length;
    const outcome = await provider('http://sms.internal.lan:8080').send('+14155550104', 'x');
    expect(outcome.verdict).to.equal('rejected');
    expect(outcome.error).to.equal('sms.internal.lan is not a public address (nonPublicAddress)');
    expect(peer.requests.length).to.equal(before);
  });
});
