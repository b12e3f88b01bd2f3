import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/main/config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  return [];
};

describe('configuration: every problem at once', () => {
  it('reports every bad variable of one start together, one line each, naming it', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      METRICS_TOKEN: 'short',
      RESULTS_RETENTION_DAYS: '0',
      DNS_SERVERS: 'not-an-address',
      CHECK_PRIVATE_ALLOWLIST: '10.0.0.0/99',
      TRUST_PROXY: 'nowhere',
      PLATFORM_ADMIN_EMAIL: 'admin@example.com',
      SMS_FROM: '+15550100',
      BILLING_DISCOUNT_CODES: 'BAD',
    });
    for (const variable of [
      'PORT',
      'METRICS_TOKEN',
      'RESULTS_RETENTION_DAYS',
      'DNS_SERVERS',
      'CHECK_PRIVATE_ALLOWLIST',
      'TRUST_PROXY',
      'PLATFORM_ADMIN_EMAIL',
      'SMS_ACCOUNT_SID',
      'BILLING_DISCOUNT_CODES',
    ]) {
      expect(
        problems.some((line) => line.includes(variable)),
        `${variable} in ${JSON.stringify(problems)}`,
      ).to.equal(true);
    }
    for (const line of problems) expect(line).to.match(/^Invalid configuration: /);
  });

  it('reports several problems of one part together (locations and resolvers)', () => {
    const problems = problemsOf({ MONITOR_LOCATIONS: 'eu-west,heartbeat', DNS_SERVERS: 'x', CREDENTIALS_KEY: 'c2hvcnQ=' });
    expect(problems.filter((line) => /MONITOR_LOCATIONS|CHECK_LOCATIONS|DNS_SERVERS|CREDENTIALS_KEY/.test(line))).to.have.length.at.least(
      4,
    );
  });

  it('refuses the sample database password of compose.yaml', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgresql://monitoring:change-me@postgres:5432/monitoring' });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^Invalid configuration: DATABASE_URL: uses the sample password "change-me"/);
    expect(problemsOf({ DATABASE_URL: 'postgresql://monitoring:a-secret-of-mine@postgres:5432/monitoring' })).to.deep.equal([]);
  });

  it('starts on a clean environment', () => {
    expect(problemsOf({})).to.deep.equal([]);
  });
});

describe('configuration: documented', () => {
  const source = readFileSync(path.resolve(__dirname, '../../../src/main/config-schema.ts'), 'utf8');
  const doc = readFileSync(path.resolve(__dirname, '../../../docs/configuration.md'), 'utf8');
  const schema = source.slice(source.indexOf('const ConfigSchema'), source.indexOf('});', source.indexOf('const ConfigSchema')));
  const variables = [...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);

  it('reads its variables from one schema', () => {
    expect(variables.length).to.be.greaterThan(40);
  });

  it('lists every variable the service reads in docs/configuration.md', () => {
    const missing = variables.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing, 'variables read by src/main/config-schema.ts but not in docs/configuration.md').to.deep.equal([]);
  });

  it('documents no variable the service does not read', () => {
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'));
    const named = rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
    expect(named.length).to.be.greaterThan(40);
    expect(
      named.filter((name) => !variables.includes(name)),
      'docs/configuration.md rows naming variables src/main/config-schema.ts does not read',
    ).to.deep.equal([]);
  });

  it('states the rule of every variable that has one (a minimum length, a range) in its row', () => {
    const rowOf = (name: string) => (doc.split('\n').find((line) => line.includes(`\`${name}\``)) ?? '').replace(/[,_]/g, '');
    const undocumented: string[] = [];
    for (const line of schema.split('\n')) {
      const match = /^\s+([A-Z][A-Z0-9_]+):(.*)$/.exec(line);
      if (!match) continue;
      const bounds = [...match[2]!.matchAll(/\.(?:min|max)\((-?[\d_]+)\)/g)].map((m) => m[1]!.replace(/_/g, ''));
      const row = rowOf(match[1]!);
      for (const bound of bounds) if (!row.includes(bound)) undocumented.push(`${match[1]} ${bound}`);
    }
    expect(undocumented, 'bounds in src/main/config-schema.ts missing from their docs/configuration.md row').to.deep.equal([]);
  });
});
