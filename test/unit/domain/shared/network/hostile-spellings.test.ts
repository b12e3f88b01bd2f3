import { expect } from 'chai';
import { parseHost } from '../../../../../src/domain/shared/network/host';
import { parseTargetUrl } from '../../../../../src/domain/shared/network/target-url';
import { parseConnectHost } from '../../../../../src/domain/shared/network/connect-host';
import { isAllowedAddress } from '../../../../../src/domain/shared/network/target-rules';
import { AppError } from '../../../../../src/domain/shared/app-error';

/** What the pure policy says about a literal: accepted (public), or why not. */
function judgeHost(raw: string): string {
  const parsed = parseHost(raw);
  if (!parsed.ok) return parsed.reason;
  if (parsed.host.kind === 'name') return 'name';
  return isAllowedAddress(parsed.host.address, []) ? 'public' : 'nonPublicAddress';
}

function judgeUrl(raw: string): string {
  const parsed = parseTargetUrl(raw);
  if (!parsed.ok) return parsed.reason;
  const host = parsed.parsed.host;
  if (host.kind === 'name') return 'name';
  return isAllowedAddress(host.address, []) ? 'public' : 'nonPublicAddress';
}

function judgeConnectHost(raw: string): string {
  try {
    const target = parseConnectHost(raw)!;
    if (target.host.kind === 'name') return 'name';
    return isAllowedAddress(target.host.address, []) ? 'public' : 'connectHostNotPublic';
  } catch (error) {
    return (error as AppError).code;
  }
}

/** Hostile spellings of non-public targets, each with the reason it must be refused. */
const HOSTILE_HOSTS: Array<[string, string]> = [
  ['127.0.0.1', 'nonPublicAddress'],
  ['127.1', 'nonPublicAddress'],
  ['127.0.1', 'nonPublicAddress'],
  ['2130706433', 'nonPublicAddress'],
  ['0x7f000001', 'nonPublicAddress'],
  ['0x7F.0.0.1', 'nonPublicAddress'],
  ['0x7f.1', 'nonPublicAddress'],
  ['017700000001', 'nonPublicAddress'],
  ['0177.0.0.1', 'nonPublicAddress'],
  ['0177.1', 'nonPublicAddress'],
  ['127.000.000.001', 'nonPublicAddress'],
  ['127.0.0.1.', 'nonPublicAddress'],
  ['0', 'nonPublicAddress'],
  ['0.0.0.0', 'nonPublicAddress'],
  ['10.0.0.1', 'nonPublicAddress'],
  ['10.1', 'nonPublicAddress'],
  ['012.0.0.1', 'nonPublicAddress'],
  ['172.16.0.1', 'nonPublicAddress'],
  ['172.31.255.255', 'nonPublicAddress'],
  ['192.168.1.1', 'nonPublicAddress'],
  ['0xc0a80101', 'nonPublicAddress'],
  ['169.254.169.254', 'nonPublicAddress'],
  ['0xa9fea9fe', 'nonPublicAddress'],
  ['2852039166', 'nonPublicAddress'],
  ['100.64.0.1', 'nonPublicAddress'],
  ['100.127.255.254', 'nonPublicAddress'],
  ['224.0.0.1', 'nonPublicAddress'],
  ['239.255.255.250', 'nonPublicAddress'],
  ['255.255.255.255', 'nonPublicAddress'],
  ['240.0.0.1', 'nonPublicAddress'],
  ['192.0.0.8', 'nonPublicAddress'],
  ['192.0.2.10', 'nonPublicAddress'],
  ['198.51.100.7', 'nonPublicAddress'],
  ['203.0.113.99', 'nonPublicAddress'],
  ['198.18.0.1', 'nonPublicAddress'],
  ['192.88.99.1', 'nonPublicAddress'],
  ['[::1]', 'nonPublicAddress'],
  ['::1', 'nonPublicAddress'],
  ['[0:0:0:0:0:0:0:1]', 'nonPublicAddress'],
  ['[::]', 'nonPublicAddress'],
  ['[::ffff:127.0.0.1]', 'nonPublicAddress'],
  ['[::ffff:7f00:1]', 'nonPublicAddress'],
  ['[0:0:0:0:0:ffff:10.0.0.1]', 'nonPublicAddress'],
  ['[::ffff:a9fe:a9fe]', 'nonPublicAddress'],
  ['[::127.0.0.1]', 'nonPublicAddress'],
  ['[64:ff9b::127.0.0.1]', 'nonPublicAddress'],
  ['[64:ff9b::a00:1]', 'nonPublicAddress'],
  ['[2002:7f00:1::]', 'nonPublicAddress'],
  ['[2002:c0a8:101::1]', 'nonPublicAddress'],
  ['[fe80::1]', 'nonPublicAddress'],
  ['[FE80::ABCD]', 'nonPublicAddress'],
  ['[fc00::1]', 'nonPublicAddress'],
  ['[fd12:3456::1]', 'nonPublicAddress'],
  ['[fec0::1]', 'nonPublicAddress'],
  ['[ff02::1]', 'nonPublicAddress'],
  ['[2001:db8::1]', 'nonPublicAddress'],
  ['[3fff::1]', 'nonPublicAddress'],
  ['[2001::1]', 'nonPublicAddress'],
  ['[100::1]', 'nonPublicAddress'],
  ['[::ffff:0:7f00:1]', 'nonPublicAddress'],
  ['[fe80::1%eth0]', 'malformed'],
  ['[fe80::1%25eth0]', 'malformed'],
  ['localhost', 'reservedName'],
  ['LOCALHOST', 'reservedName'],
  ['localhost.', 'reservedName'],
  ['api.localhost', 'reservedName'],
  ['printer.local', 'reservedName'],
  ['printer.local.', 'reservedName'],
  ['metadata.google.internal', 'reservedName'],
  ['router.home.arpa', 'reservedName'],
  ['nas.lan', 'reservedName'],
  ['intranet', 'reservedName'],
  ['intranet.', 'reservedName'],
  ['db.corp', 'reservedName'],
  ['example.com@127.0.0.1', 'malformed'],
  ['127.0.0.1/admin', 'malformed'],
  ['127.0.0.1 ', 'malformed'],
  [' 127.0.0.1', 'malformed'],
  ['127.0.0.1\n', 'malformed'],
  ['127.0.0.1\u0000.example.com', 'malformed'],
  ['%31%32%37.0.0.1', 'malformed'],
  ['\uff11\uff12\uff17.0.0.1', 'malformed'],
  ['1.2.3.4.5', 'malformed'],
  ['256.0.0.1', 'malformed'],
  ['127.0.0.1..', 'malformed'],
  ['0x7g.0.0.1', 'malformed'],
  ['08.0.0.1', 'malformed'],
  ['[::1', 'malformed'],
  ['[1::2::3]', 'malformed'],
  ['example.com:80', 'malformed'],
];

const HOSTILE_URLS: Array<[string, string]> = [
  ['http://127.0.0.1/', 'nonPublicAddress'],
  ['http://127.1/', 'nonPublicAddress'],
  ['http://0x7f.1/', 'nonPublicAddress'],
  ['http://2130706433/', 'nonPublicAddress'],
  ['http://017700000001/', 'nonPublicAddress'],
  ['http://%31%32%37.0.0.1/', 'nonPublicAddress'],
  ['http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', 'nonPublicAddress'],
  ['http://127.0.0.1.:8080/', 'nonPublicAddress'],
  ['http://[::ffff:127.0.0.1]/', 'nonPublicAddress'],
  ['http://[::1]:3000/', 'nonPublicAddress'],
  ['http://169.254.169.254/latest/meta-data/', 'nonPublicAddress'],
  ['http://0/', 'nonPublicAddress'],
  ['https://127.0.0.1#@example.com/', 'nonPublicAddress'],
  ['HTTP://LOCALHOST/', 'reservedName'],
  ['http://localhost./', 'reservedName'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'reservedName'],
  ['http://example.com@127.0.0.1/', 'malformed'],
  ['http://@127.0.0.1/', 'malformed'],
  ['http://user:pass@example.com/', 'malformed'],
  ['http://example.com\\@127.0.0.1/', 'malformed'],
  ['http://[fe80::1%25eth0]/', 'malformed'],
  ['http://1.2.3.4.5/', 'malformed'],
  ['http://example.com:0/', 'malformed'],
  ['http://example.com:99999/', 'malformed'],
  ['ftp://example.com/', 'malformed'],
  ['file:///etc/passwd', 'malformed'],
  ['javascript:alert(1)', 'malformed'],
  ['//example.com/', 'malformed'],
  [' http://example.com/', 'malformed'],
  ['http://exa mple.com/', 'malformed'],
];

describe('target policy: hostile spellings', () => {
  it('refuses at least 40 hostile host spellings', () => expect(HOSTILE_HOSTS.length + HOSTILE_URLS.length).to.be.at.least(40));

  for (const [host, reason] of HOSTILE_HOSTS) {
    it(`host ${JSON.stringify(host)} -> ${reason}`, () => expect(judgeHost(host)).to.equal(reason));
  }
  for (const [url, reason] of HOSTILE_URLS) {
    it(`url ${JSON.stringify(url)} -> ${reason}`, () => expect(judgeUrl(url)).to.equal(reason));
  }
});

describe('target policy: public targets pass', () => {
  const PUBLIC_HOSTS: Array<[string, string]> = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['0x08080808', 'public'],
    ['134744072', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.169.0.1', 'public'],
    ['198.20.0.1', 'public'],
    ['223.255.255.255', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['[::ffff:8.8.8.8]', 'public'],
    ['[64:ff9b::808:808]', 'public'],
    ['[2002:808:808::1]', 'public'],
    ['example.com', 'name'],
    ['Example.COM.', 'name'],
    ['_dmarc.example.com', 'name'],
    ['xn--bcher-kva.example', 'reservedName'],
    ['xn--bcher-kva.de', 'name'],
    ['127.0.0.1.nip.io', 'name'],
    ['local.example.com', 'name'],
  ];
  for (const [host, verdict] of PUBLIC_HOSTS) {
    it(`host ${host} -> ${verdict}`, () => expect(judgeHost(host)).to.equal(verdict));
  }

  it('normalises a URL and keeps its host', () => {
    const parsed = parseTargetUrl('HTTPS://Example.com:8443/path?q=1#frag');
    expect(parsed).to.include({ ok: true, href: 'https://example.com:8443/path?q=1#frag', host: 'example.com' });
  });
});

describe('target policy: connectHost', () => {
  const CASES: Array<[string, string]> = [
    ['origin.example.com', 'name'],
    ['origin.example.com:8443', 'name'],
    ['203.0.114.5:443', 'public'],
    ['[2606:4700::1]:443', 'public'],
    ['[2606:4700::1]', 'public'],
    ['2606:4700::1', 'connectHostInvalid'],
    ['https://origin.example.com', 'connectHostInvalid'],
    ['origin.example.com/path', 'connectHostInvalid'],
    ['origin.example.com:0', 'connectHostInvalid'],
    ['origin.example.com:65536', 'connectHostInvalid'],
    ['origin.example.com:', 'connectHostInvalid'],
    ['origin .example.com', 'connectHostInvalid'],
    ['user@origin.example.com', 'connectHostInvalid'],
    ['[::1]:443', 'connectHostNotPublic'],
    ['127.1:80', 'connectHostNotPublic'],
    ['0x0a000001', 'connectHostNotPublic'],
    ['localhost:8080', 'connectHostNotPublic'],
    ['db.internal', 'connectHostNotPublic'],
  ];
  for (const [value, verdict] of CASES) {
    it(`${JSON.stringify(value)} -> ${verdict}`, () => expect(judgeConnectHost(value)).to.equal(verdict));
  }

  it('answers null for an empty value and keeps host and port apart', () => {
    expect(parseConnectHost('')).to.equal(null);
    expect(parseConnectHost(null)).to.equal(null);
    const target = parseConnectHost('Origin.Example.com.:8443')!;
    expect(target).to.include({ text: 'origin.example.com:8443', port: 8443 });
    expect(parseConnectHost('[2606:4700:0::1]:443')!.text).to.equal('[2606:4700::1]:443');
  });
});
