import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration: notification delivery', () => {
  it('defaults: no platform SMTP server, sender alerts@ the public host, 30 s back-off doubling to an hour, 8 attempts, storms past 3 openings in 5 seconds told once settled for a second, with follow-ups each minute and a 30-minute quiet end, failing after 3, 2-minute leases', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://status.example.com' }).notifications).to.deep.equal({
      smtpUrl: undefined,
      smtpFrom: 'alerts@status.example.com',
      retryBaseMs: 30_000,
      retryMaxMs: 3_600_000,
      maxAttempts: 8,
      pollMs: 1_000,
      storm: { alone: 3, windowMs: 5_000, settleMs: 1_000, followUpMs: 60_000, quietMs: 1_800_000 },
      failingAfter: 3,
      leaseMs: 120_000,
    });
  });

  it('takes SMTP_URL, SMTP_FROM and the retry settings; the cap is never below the base', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMTP_FROM: 'noc@example.com',
      NOTIFY_RETRY_BASE_MS: '5000',
      NOTIFY_RETRY_MAX_MS: '100',
      NOTIFY_MAX_ATTEMPTS: '3',
      NOTIFY_POLL_MS: '250',
      NOTIFY_DIGEST_AFTER: '5',
      NOTIFY_DIGEST_WINDOW_SECONDS: '1.5',
      NOTIFY_CHANNEL_FAILING_AFTER: '10',
      NOTIFY_STORM_FOLLOW_UP_SECONDS: '300',
      NOTIFY_STORM_QUIET_SECONDS: '600',
      NOTIFY_STORM_SETTLE_SECONDS: '0.5',
      NOTIFY_LEASE_MS: '2000',
    });
    expect(config.notifications).to.deep.equal({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      smtpFrom: 'noc@example.com',
      retryBaseMs: 5_000,
      retryMaxMs: 5_000,
      maxAttempts: 3,
      pollMs: 250,
      storm: { alone: 5, windowMs: 1_500, settleMs: 500, followUpMs: 300_000, quietMs: 600_000 },
      failingAfter: 10,
      leaseMs: 2_000,
    });
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, and a sender that is not an address', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).to.throw(ConfigError, /^Invalid configuration: SMTP_URL: /);
    expect(() => loadConfig({ SMTP_FROM: 'alerts' })).to.throw(ConfigError, /^Invalid configuration: SMTP_FROM: /);
    expect(() => loadConfig({ NOTIFY_MAX_ATTEMPTS: '0' })).to.throw(ConfigError, /^Invalid configuration: NOTIFY_MAX_ATTEMPTS: /);
    expect(() => loadConfig({ NOTIFY_LEASE_MS: '500' })).to.throw(ConfigError, /^Invalid configuration: NOTIFY_LEASE_MS: /);
    expect(() => loadConfig({ NOTIFY_DIGEST_WINDOW_SECONDS: '-1' })).to.throw(
      ConfigError,
      /^Invalid configuration: NOTIFY_DIGEST_WINDOW_SECONDS: /,
    );
    expect(() => loadConfig({ NOTIFY_STORM_FOLLOW_UP_SECONDS: '0' })).to.throw(
      ConfigError,
      /^Invalid configuration: NOTIFY_STORM_FOLLOW_UP_SECONDS: /,
    );
    expect(() => loadConfig({ NOTIFY_STORM_SETTLE_SECONDS: '0' })).to.throw(
      ConfigError,
      /^Invalid configuration: NOTIFY_STORM_SETTLE_SECONDS: /,
    );
    expect(() => loadConfig({ NOTIFY_STORM_QUIET_SECONDS: '0' })).to.throw(
      ConfigError,
      /^Invalid configuration: NOTIFY_STORM_QUIET_SECONDS: /,
    );
    expect(() => loadConfig({ NOTIFY_CHANNEL_FAILING_AFTER: '0' })).to.throw(
      ConfigError,
      /^Invalid configuration: NOTIFY_CHANNEL_FAILING_AFTER: /,
    );
  });

  it("bounds the deliverer's connections: 10,000 names of DNS kept, 8 connections per receiver of 1,000 kept, 3 per SMTP server of 100 kept", () => {
    expect(loadConfig({}).notificationConnections).to.deep.equal({
      dnsCacheSize: 10_000,
      httpSocketsPerOrigin: 8,
      httpOrigins: 1_000,
      smtpConnectionsPerServer: 3,
      smtpServers: 100,
    });
    expect(
      loadConfig({
        NOTIFY_DNS_CACHE_SIZE: '0',
        NOTIFY_HTTP_SOCKETS_PER_ORIGIN: '2',
        NOTIFY_HTTP_ORIGINS: '50',
        NOTIFY_SMTP_CONNECTIONS_PER_SERVER: '1',
        NOTIFY_SMTP_SERVERS: '5',
      }).notificationConnections,
    ).to.deep.equal({ dnsCacheSize: 0, httpSocketsPerOrigin: 2, httpOrigins: 50, smtpConnectionsPerServer: 1, smtpServers: 5 });
    for (const [name, value] of [
      ['NOTIFY_DNS_CACHE_SIZE', '-1'],
      ['NOTIFY_HTTP_SOCKETS_PER_ORIGIN', '0'],
      ['NOTIFY_HTTP_ORIGINS', '0'],
      ['NOTIFY_SMTP_CONNECTIONS_PER_SERVER', '101'],
      ['NOTIFY_SMTP_SERVERS', '0'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).to.throw(ConfigError, new RegExp(`^Invalid configuration: ${name}: `));
    }
  });
});
