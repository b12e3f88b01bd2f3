import { expect } from 'chai';
import { monitorBodies } from '../../../../src/interfaces/http/monitoring/monitor.schemas';

/** The Redis, PostgreSQL and MySQL kinds' create and patch bodies, as the edge builds them from their descriptors. */
describe('database monitor bodies (from the descriptors)', () => {
  it('takes a Redis command and expected reply, the TLS modes and write-only credentials; nothing of the SQL kinds', () => {
    const { create, patch } = monitorBodies('redis');
    const body = { hostname: 'cache.example.com' };
    expect(create.safeParse(body).success).to.equal(true);
    expect(create.safeParse({ ...body, command: 'INFO server', expectedReply: 'redis_version', sslMode: 'verify-full' }).success).to.equal(
      true,
    );
    expect(create.safeParse({ ...body, credentials: { username: 'default', password: 'p' }, checkMode: 'tcp' }).success).to.equal(true);
    expect(create.safeParse({ ...body, sslMode: 'starttls' }).success).to.equal(false);
    expect(create.safeParse({ ...body, command: 'x'.repeat(1025) }).success).to.equal(false);
    expect(create.safeParse({ ...body, query: 'SELECT 1' }).success).to.equal(false);
    expect(patch.safeParse({ command: 'PING', expectedReply: null }).success).to.equal(true);
  });

  for (const kind of ['postgres', 'mysql'] as const) {
    it(`takes a ${kind} database, query and expected result, the TLS modes and credentials; nothing of Redis`, () => {
      const { create, patch } = monitorBodies(kind);
      const body = { hostname: 'db.example.com', credentials: { username: 'monitor', password: 'p' } };
      expect(create.safeParse(body).success).to.equal(true);
      const full = { ...body, database: 'shop', query: 'SELECT 1', expectedResult: '1', sslMode: 'require', port: 6432 };
      expect(create.safeParse(full).success).to.equal(true);
      expect(create.safeParse({ ...body, database: null, expectedResult: null }).success).to.equal(true);
      expect(create.safeParse({ ...body, query: 'x'.repeat(2049) }).success).to.equal(false);
      expect(create.safeParse({ ...body, sslMode: 'prefer' }).success).to.equal(false);
      expect(create.safeParse({ ...body, command: 'PING' }).success).to.equal(false);
      expect(patch.safeParse({ query: 'SELECT 2', credentials: null }).success).to.equal(true);
    });
  }
});
