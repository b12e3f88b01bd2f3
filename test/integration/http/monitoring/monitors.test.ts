import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitor, aMonitoredCustomer, storedMonitor } from '../../../support/monitoring-fixtures';

async function setup() {
  const org = await anOrganization('monitors');
  const customer = await aMonitoredCustomer(org.token);
  return { token: org.token, customer };
}

describe('per-kind monitors under /api/monitors/{type}', () => {
  it('creates one of every kind with its target and protocol settings', async () => {
    const { token, customer } = await setup();
    const customerId = customer.id;
    const dns = await aMonitor(token, 'dns', {
      customerId,
      hostname: '_dmarc.monitor-fixture.com',
      recordType: 'TXT',
      expectedValues: ['v=DMARC1'],
      resolver: '9.9.9.9',
    });
    expect(dns).to.include({
      type: 'dns',
      monitoringType: 'dns',
      hostname: '_dmarc.monitor-fixture.com',
      recordType: 'TXT',
      resolver: '9.9.9.9',
    });
    const icmp = await aMonitor(token, 'icmp', { customerId, hostname: 'www.monitor-fixture.com' });
    expect(icmp).to.include({ type: 'icmp', hostname: 'www.monitor-fixture.com' }).and.not.have.property('port');
    const tcp = await aMonitor(token, 'tcp', { customerId, hostname: '93.184.216.34', port: 5432 });
    expect(tcp).to.include({ port: 5432, effectivePort: 5432 }).and.not.have.property('checkMode');
    const smtp = await aMonitor(token, 'smtp', { customerId, hostname: 'mail.monitor-fixture.com', tlsMode: 'implicit' });
    expect(smtp).to.include({ checkMode: 'protocol', tlsMode: 'implicit', port: null, effectivePort: 465, hasCredentials: false });
    const ssh = await aMonitor(token, 'ssh', { customerId, hostname: 'www.monitor-fixture.com', checkMode: 'tcp' });
    expect(ssh).to.include({ checkMode: 'tcp', effectivePort: 22 });
    const ftp = await aMonitor(token, 'ftp', { customerId, hostname: 'www.monitor-fixture.com' });
    expect(ftp).to.include({ effectivePort: 21, tlsMode: 'none' });
    const pop = await aMonitor(token, 'imap-pop', { customerId, hostname: 'mail.monitor-fixture.com', protocol: 'pop3' });
    expect(pop).to.include({ protocol: 'pop3', tlsMode: 'implicit', effectivePort: 995 });

    const list = await api('GET', '/api/monitors/tcp', { token });
    expect(list.body).to.include({ total: 1 });
    expect(list.body.items[0].publicId).to.equal(tcp.publicId);
    expectError(await api('GET', `/api/monitors/dns/${tcp.publicId}`, { token }), 404, 'monitorNotFound');
    expectError(await api('GET', '/api/monitors/carrier-pigeon', { token }), 404);
  });

  it('answers invalidHostname for TCP, SSH and FTP hosts that are not public', async () => {
    const { token, customer } = await setup();
    const customerId = customer.id;
    expectError(
      await api('POST', '/api/monitors/tcp', { token, body: { customerId, hostname: '10.0.0.1', port: 22 } }),
      400,
      'invalidHostname',
    );
    expectError(
      await api('POST', '/api/monitors/ssh', { token, body: { customerId, hostname: 'bastion.internal' } }),
      400,
      'invalidHostname',
    );
    expectError(
      await api('POST', '/api/monitors/ftp', { token, body: { customerId, hostname: 'rebind.monitor-fixture.com' } }),
      400,
      'invalidHostname',
    );
    expectError(await api('POST', '/api/monitors/ftp', { token, body: { customerId, hostname: '0177.0.0.1' } }), 400, 'invalidHostname');
    expectError(
      await api('POST', '/api/monitors/dns', { token, body: { customerId, hostname: 'example.com', resolver: '127.0.0.53' } }),
      400,
      'invalidHostname',
    );
    const tcp = await aMonitor(token, 'tcp', { customerId, hostname: 'www.monitor-fixture.com', port: 443 });
    expectError(await api('PATCH', `/api/monitors/tcp/${tcp.publicId}`, { token, body: { hostname: '[::1]' } }), 400, 'invalidHostname');
  });

  it('answers invalidCheckMode and portRequiredForTcp', async () => {
    const { token, customer } = await setup();
    const imap = await aMonitor(token, 'imap-pop', { customerId: customer.id, hostname: 'mail.monitor-fixture.com', protocol: 'imap' });
    expectError(
      await api('PATCH', `/api/monitors/imap-pop/${imap.publicId}`, { token, body: { checkMode: 'udp' } }),
      400,
      'invalidCheckMode',
    );
    expectError(
      await api('PATCH', `/api/monitors/imap-pop/${imap.publicId}`, { token, body: { checkMode: 'tcp' } }),
      400,
      'portRequiredForTcp',
    );
    expectError(
      await api('POST', '/api/monitors/imap-pop', {
        token,
        body: { customerId: customer.id, hostname: 'mail.monitor-fixture.com', protocol: 'imap', checkMode: 'tcp' },
      }),
      400,
      'portRequiredForTcp',
    );
    const tcpMode = await api('PATCH', `/api/monitors/imap-pop/${imap.publicId}`, { token, body: { checkMode: 'tcp', port: 993 } });
    expect(tcpMode.body).to.include({ checkMode: 'tcp', port: 993 });
    const ssh = await aMonitor(token, 'ssh', { customerId: customer.id, hostname: 'www.monitor-fixture.com' });
    expectError(await api('PATCH', `/api/monitors/ssh/${ssh.publicId}`, { token, body: { checkMode: 42 } }), 400, 'invalidCheckMode');
    expect((await api('PATCH', `/api/monitors/ssh/${ssh.publicId}`, { token, body: { checkMode: 'tcp' } })).body).to.include({
      effectivePort: 22,
    });
  });

  it('stores credentials encrypted, never returns them, and drops them in tcp mode', async () => {
    const { token, customer } = await setup();
    const smtp = await aMonitor(token, 'smtp', {
      customerId: customer.id,
      hostname: 'mail.monitor-fixture.com',
      credentials: { username: 'alerts@shop.example', password: 'hunter2-secret' },
    });
    expect(smtp.hasCredentials).to.equal(true);
    expect(JSON.stringify(smtp)).not.to.include('hunter2');
    const read = await api('GET', `/api/monitors/smtp/${smtp.publicId}`, { token });
    expect(JSON.stringify(read.body)).not.to.include('hunter2').and.not.include('alerts@shop');
    const row = await storedMonitor(smtp.publicId);
    expect(row.credentials_ciphertext).to.match(/^v1\./).and.not.include('hunter2');
    expect(JSON.stringify(row)).not.to.include('hunter2');

    const tcp = await api('PATCH', `/api/monitors/smtp/${smtp.publicId}`, {
      token,
      body: { checkMode: 'tcp', credentials: { username: 'x', password: 'y' } },
    });
    expect(tcp.body).to.include({ checkMode: 'tcp', hasCredentials: false });
    expect((await storedMonitor(smtp.publicId)).credentials_ciphertext).to.equal(null);
    const back = await api('PATCH', `/api/monitors/smtp/${smtp.publicId}`, {
      token,
      body: { checkMode: 'protocol', credentials: { username: 'u', password: 'p' } },
    });
    expect(back.body).to.include({ checkMode: 'protocol', hasCredentials: true });
    const cleared = await api('PATCH', `/api/monitors/smtp/${smtp.publicId}`, { token, body: { credentials: null } });
    expect(cleared.body.hasCredentials).to.equal(false);
  });

  it('applies the interval and timeout codes to every kind', async () => {
    const { token, customer } = await setup();
    const icmp = await aMonitor(token, 'icmp', { customerId: customer.id, hostname: 'www.monitor-fixture.com' });
    expectError(
      await api('PATCH', `/api/monitors/icmp/${icmp.publicId}`, { token, body: { checkInterval: 1441 } }),
      400,
      'checkIntervalTooHigh',
    );
    expectError(
      await api('PATCH', `/api/monitors/icmp/${icmp.publicId}`, { token, body: { checkInterval: 1.5 } }),
      400,
      'invalidCheckInterval',
    );
    expectError(await api('PATCH', `/api/monitors/icmp/${icmp.publicId}`, { token, body: { timeoutSeconds: 99 } }), 400, 'invalidTimeout');
    const removed = await api('DELETE', `/api/monitors/icmp/${icmp.publicId}`, { token });
    expect(removed.body).to.deep.equal({ success: true });
  });
});
