import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration: SMS provider', () => {
  it('no account by default: SMS deliveries have no sender', () => {
    expect(loadConfig({}).sms).to.equal(null);
  });

  it("takes the Twilio account, the sender and Twilio's API as the default base URL", () => {
    expect(loadConfig({ SMS_ACCOUNT_SID: 'AC123', SMS_AUTH_TOKEN: 'secret', SMS_FROM: '+15005550006' }).sms).to.deep.equal({
      providerUrl: 'https://api.twilio.com',
      accountSid: 'AC123',
      authToken: 'secret',
      from: '+15005550006',
    });
    expect(
      loadConfig({ SMS_PROVIDER_URL: 'http://sms.internal.example:8080', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 't', SMS_FROM: 'Alerts' })
        .sms,
    ).to.include({ providerUrl: 'http://sms.internal.example:8080' });
  });

  it('refuses part of an account, an account SID with other characters and a base URL that is not http(s)', () => {
    expect(() => loadConfig({ SMS_ACCOUNT_SID: 'AC123', SMS_AUTH_TOKEN: 'secret' })).to.throw(
      ConfigError,
      'Invalid configuration: SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set together',
    );
    expect(() => loadConfig({ SMS_ACCOUNT_SID: 'AC/../x', SMS_AUTH_TOKEN: 't', SMS_FROM: '+1' })).to.throw(
      ConfigError,
      /^Invalid configuration: SMS_ACCOUNT_SID: /,
    );
    expect(() => loadConfig({ SMS_PROVIDER_URL: 'ftp://sms.example.com' })).to.throw(
      ConfigError,
      /^Invalid configuration: SMS_PROVIDER_URL: /,
    );
  });
});
