import { expect } from 'chai';
import { assertChannelUrl, judgeChannelUrl } from '../../../../src/domain/notifications/channel-url';
import { expectAppError } from '../../../support/expect-app-error';

describe('the channel URL rule', () => {
  const refused: Array<[string, string, string]> = [
    ['unparseable', 'http://exa mple.com/', 'malformed'],
    ['empty', '', 'malformed'],
    ['no scheme', 'hooks.example.com/x', 'malformed'],
    ['not http(s): ftp', 'ftp://hooks.example.com/x', 'malformed'],
    ['not http(s): javascript', 'javascript:alert(1)', 'malformed'],
    ['userinfo hiding the host', 'http://hooks.example.com@10.0.0.1/', 'malformed'],
    ['port 0', 'https://hooks.example.com:0/', 'malformed'],
    ['private 10/8', 'http://10.0.0.1/hook', 'nonPublicAddress'],
    ['private 192.168/16', 'http://192.168.1.20/hook', 'nonPublicAddress'],
    ['private 172.16/12', 'http://172.20.0.1/hook', 'nonPublicAddress'],
    ['private IPv6 (ULA)', 'http://[fd00::1]/hook', 'nonPublicAddress'],
    ['loopback', 'http://127.0.0.1/hook', 'nonPublicAddress'],
    ['loopback in hex', 'http://0x7f000001/hook', 'nonPublicAddress'],
    ['loopback IPv6', 'http://[::1]/hook', 'nonPublicAddress'],
    ['loopback IPv4-mapped', 'http://[::ffff:127.0.0.1]/hook', 'nonPublicAddress'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data', 'nonPublicAddress'],
    ['link-local IPv6', 'http://[fe80::1]/hook', 'nonPublicAddress'],
    ['unspecified', 'http://0.0.0.0/hook', 'nonPublicAddress'],
    ['localhost', 'http://localhost:8080/hook', 'reservedName'],
    ['a localhost subdomain', 'http://api.localhost/hook', 'reservedName'],
    ['.local', 'http://printer.local/hook', 'reservedName'],
    ['.internal', 'http://hooks.corp.internal/x', 'reservedName'],
    ['.home.arpa', 'http://nas.home.arpa/x', 'reservedName'],
    ['single-label host', 'http://intranet/x', 'reservedName'],
    ['single-label host with a trailing dot', 'http://intranet./x', 'reservedName'],
  ];
  for (const [what, url, reason] of refused) {
    it(`refuses ${what} (${reason})`, () => {
      expect(judgeChannelUrl(url)).to.deep.include({ ok: false, reason });
    });
  }

  it('accepts public http and https URLs, normalized as the HTTP client reads them', () => {
    expect(judgeChannelUrl('https://hooks.slack.com/services/T0/B0/x')).to.deep.equal({
      ok: true,
      href: 'https://hooks.slack.com/services/T0/B0/x',
    });
    expect(judgeChannelUrl('HTTP://Hooks.Example.COM:8443/a?b=1')).to.deep.equal({ ok: true, href: 'http://hooks.example.com:8443/a?b=1' });
    expect(judgeChannelUrl('http://93.184.216.34/hook')).to.deep.equal({ ok: true, href: 'http://93.184.216.34/hook' });
  });

  it('admits a private literal the operator allowlisted, and only that; reserved names stay refused', () => {
    const loopbackOnly = (address: string) => address.startsWith('127.');
    expect(judgeChannelUrl('http://127.0.0.1:9000/alerts', loopbackOnly)).to.deep.equal({ ok: true, href: 'http://127.0.0.1:9000/alerts' });
    expect(judgeChannelUrl('http://10.0.0.1/alerts', loopbackOnly)).to.deep.equal({
      ok: false,
      reason: 'nonPublicAddress',
      host: '10.0.0.1',
    });
    expect(judgeChannelUrl('http://localhost:9000/alerts', () => true)).to.deep.equal({ ok: false, reason: 'reservedName' });
  });

  it('says how to fix a refusal: the allowlist for a private address, an IP address for a reserved name', () => {
    const hintOf = (url: string) => {
      try {
        assertChannelUrl('config.url', url);
      } catch (error) {
        return (error as { details: { hint?: string } }).details.hint;
      }
      return undefined;
    };
    expect(() => assertChannelUrl('config.url', 'http://10.0.0.1/')).to.throw(/not a public address/);
    expect(hintOf('http://10.0.0.1/')).to.include('CHECK_PRIVATE_ALLOWLIST');
    expect(hintOf('http://localhost/')).to.include('IP address').and.include('CHECK_PRIVATE_ALLOWLIST');
  });

  it('throws 400 invalidRequestBody naming the field and the reason', () => {
    expectAppError(() => assertChannelUrl('config.url', 'http://localhost/'), 'invalidRequestBody', {
      field: 'config.url',
      reason: 'reservedName',
    });
  });
});
