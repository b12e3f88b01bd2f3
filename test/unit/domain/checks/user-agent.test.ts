import { expect } from 'chai';
import { checkUserAgent } from '../../../../src/domain/checks/user-agent';

describe('check User-Agent', () => {
  it('names the product (package name in PascalCase), its version and the instance URL to look up', () => {
    expect(checkUserAgent('monitoring-service', '1.0.0', 'https://status.example.com')).to.equal(
      'MonitoringService/1.0.0 (+https://status.example.com)',
    );
    expect(checkUserAgent('@acme/uptime_checker', '2.3.4-rc.1', 'http://localhost:3000')).to.equal(
      'UptimeChecker/2.3.4-rc.1 (+http://localhost:3000)',
    );
  });

  it('keeps the header one clean token: no spaces or parentheses from odd values', () => {
    expect(checkUserAgent('---', 'v 1 (x)', 'https://a.example/(b) c')).to.equal('Monitoring/v1x (+https://a.example/bc)');
  });
});
