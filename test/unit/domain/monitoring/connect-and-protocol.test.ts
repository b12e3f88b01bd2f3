import { expect } from 'chai';
import { applyConnectSettings, connectHostName, type ConnectSettings } from '../../../../src/domain/monitoring/connect-settings';
import { assertCheckMode, protocolDefaultPort, resolvePort } from '../../../../src/domain/monitoring/protocol-settings';
import { expectAppError } from '../../../support/expect-app-error';

const none: ConnectSettings = { connectHost: null, connectPort: null, connectTlsInsecure: false };

describe('connect settings', () => {
  it('stores host[:port] normalised, with the port also as connectPort', () => {
    expect(applyConnectSettings(none, { connectHost: 'Origin.Example.com:8443' }, true)).to.deep.equal({
      connectHost: 'origin.example.com:8443',
      connectPort: 8443,
      connectTlsInsecure: false,
    });
    expect(applyConnectSettings(none, { connectHost: 'origin.example.com', connectPort: 444 }, true)).to.include({
      connectHost: 'origin.example.com',
      connectPort: 444,
    });
  });

  it('refuses malformed hosts, bad ports and a connectPort contradicting the host port with connectHostInvalid', () => {
    for (const bad of ['https://origin.example.com', 'origin.example.com/x', 'a b', '::1', 'origin.example.com:0', 42]) {
      expectAppError(() => applyConnectSettings(none, { connectHost: bad }, true), 'connectHostInvalid');
    }
    expectAppError(() => applyConnectSettings(none, { connectPort: 70000 }, true), 'connectHostInvalid');
    expectAppError(
      () => applyConnectSettings(none, { connectHost: 'origin.example.com:443', connectPort: 8443 }, true),
      'connectHostInvalid',
    );
  });

  it('port precedence: a connectPort sent with a host:port must equal its port (a record sent back whole stays valid)', () => {
    expect(applyConnectSettings(none, { connectHost: 'origin.example.com:8443', connectPort: 8443 }, true)).to.include({
      connectHost: 'origin.example.com:8443',
      connectPort: 8443,
    });
    expect(applyConnectSettings(none, { connectHost: '[2606:4700::1]:8443' }, true)).to.include({
      connectHost: '[2606:4700::1]:8443',
      connectPort: 8443,
    });
    const stored = applyConnectSettings(none, { connectHost: 'origin.example.com:8443' }, true);
    expectAppError(() => applyConnectSettings(stored, { connectPort: 9443 }, true), 'connectHostInvalid');
    expect(applyConnectSettings(stored, { connectHost: 'origin.example.com:9443' }, true)).to.include({ connectPort: 9443 });
  });

  it('drops the port that came with a host:port when the host is replaced without one; keeps a connectPort set on its own', () => {
    const withPort = applyConnectSettings(none, { connectHost: 'origin.example.com:8443' }, true);
    expect(applyConnectSettings(withPort, { connectHost: 'other.example.com' }, true)).to.include({
      connectHost: 'other.example.com',
      connectPort: null,
    });
    const separate = applyConnectSettings(none, { connectHost: 'origin.example.com', connectPort: 8443 }, true);
    expect(applyConnectSettings(separate, { connectHost: 'other.example.com' }, true)).to.include({
      connectHost: 'other.example.com',
      connectPort: 8443,
    });
  });

  it('answers connectHostNotPublic for reserved names', () => {
    expectAppError(() => applyConnectSettings(none, { connectHost: 'localhost:8080' }, true), 'connectHostNotPublic');
  });

  it('requires a connectHost for connectTlsInsecure where connect fields take effect', () => {
    expectAppError(() => applyConnectSettings(none, { connectTlsInsecure: true }, true), 'connectTlsInsecureWithoutHost');
    const withHost = applyConnectSettings(none, { connectHost: 'origin.example.com', connectTlsInsecure: true }, true);
    expect(withHost.connectTlsInsecure).to.equal(true);
    expectAppError(() => applyConnectSettings(withHost, { connectHost: '' }, true), 'connectTlsInsecureWithoutHost');
    expect(applyConnectSettings(withHost, { connectHost: '', connectTlsInsecure: false }, true)).to.deep.equal(none);
  });

  it('accepts the fields without that rule where they have no effect (heartbeat, scripted browser)', () => {
    expect(applyConnectSettings(none, { connectTlsInsecure: true }, false).connectTlsInsecure).to.equal(true);
  });

  it('answers the host the policy vets', () => {
    expect(connectHostName('origin.example.com:8443')).to.equal('origin.example.com');
    expect(connectHostName('[2606:4700::1]:443')).to.equal('2606:4700::1');
  });
});

describe('checkMode and ports', () => {
  it('accepts protocol and tcp, anything else is invalidCheckMode', () => {
    expect(assertCheckMode('protocol')).to.equal('protocol');
    expect(assertCheckMode('tcp')).to.equal('tcp');
    for (const bad of ['udp', 'TCP', '', null, 1]) expectAppError(() => assertCheckMode(bad), 'invalidCheckMode');
  });

  it('knows the protocol defaults', () => {
    expect(protocolDefaultPort('ssh', null, null)).to.equal(22);
    expect(protocolDefaultPort('smtp', 'starttls', null)).to.equal(25);
    expect(protocolDefaultPort('smtp', 'implicit', null)).to.equal(465);
    expect(protocolDefaultPort('ftp', 'none', null)).to.equal(21);
    expect(protocolDefaultPort('ftp', 'implicit', null)).to.equal(990);
    expect(protocolDefaultPort('imap-pop', 'implicit', 'imap')).to.equal(993);
    expect(protocolDefaultPort('imap-pop', 'starttls', 'imap')).to.equal(143);
    expect(protocolDefaultPort('imap-pop', 'implicit', 'pop3')).to.equal(995);
    expect(protocolDefaultPort('imap-pop', 'none', 'pop3')).to.equal(110);
  });

  it('SSH, SMTP and FTP fall back to their default in tcp mode; IMAP/POP and TCP need a port (portRequiredForTcp)', () => {
    expect(resolvePort('ssh', 'tcp', null, null, null)).to.equal(22);
    expect(resolvePort('smtp', 'tcp', null, 'starttls', null)).to.equal(25);
    expect(resolvePort('ftp', 'tcp', null, 'none', null)).to.equal(21);
    expect(resolvePort('imap-pop', 'protocol', null, 'implicit', 'imap')).to.equal(993);
    expectAppError(() => resolvePort('imap-pop', 'tcp', null, 'implicit', 'imap'), 'portRequiredForTcp');
    expect(resolvePort('imap-pop', 'tcp', 1143, 'implicit', 'imap')).to.equal(1143);
    expectAppError(() => resolvePort('tcp', null, null, null, null), 'portRequiredForTcp');
  });
});
