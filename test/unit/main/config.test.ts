import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/main/config';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).to.include({ port: 3000, host: '0.0.0.0', signupOpen: true, logLevel: 'info', publicBaseUrl: 'http://localhost:3000' });
    expect(config.databaseUrl).to.equal(undefined);
  });

  it('stops on a bad value with one line naming the variable', () => {
    for (const [env, name] of [
      [{ PORT: 'abc' }, 'PORT'],
      [{ SIGNUP: 'maybe' }, 'SIGNUP'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ] as const) {
      try {
        loadConfig(env);
        expect.fail(`${name} should be refused`);
      } catch (error) {
        expect(error).to.be.instanceOf(ConfigError);
        expect((error as Error).message)
          .to.match(new RegExp(`^Invalid configuration: ${name}: `))
          .and.not.include('\n');
      }
    }
  });

  it('wants the platform admin email and password together', () => {
    expect(() => loadConfig({ PLATFORM_ADMIN_EMAIL: 'a@b.example' })).to.throw(ConfigError, /go together/);
  });

  it('trusts PUBLIC_BASE_URL and TRUSTED_ORIGINS for cookie writes', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://mon.example/', TRUSTED_ORIGINS: 'https://a.example, https://b.example' });
    expect(config.publicBaseUrl).to.equal('https://mon.example');
    expect(config.trustedOrigins).to.deep.equal(['https://mon.example', 'https://a.example', 'https://b.example']);
  });
});
