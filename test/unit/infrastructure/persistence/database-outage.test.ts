import { expect } from 'chai';
import { isDatabaseOutage } from '../../../../src/infrastructure/persistence/database-outage';

const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('isDatabaseOutage', () => {
  it('recognizes a server going away or not taking connections, and sockets that fail', () => {
    for (const error of [
      withCode('terminating connection due to administrator command', { code: '57P01' }),
      withCode('the database system is shutting down', { code: '57P03' }),
      withCode('the database system is starting up', { code: '57P03' }),
      withCode('connection failure', { code: '08006' }),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect' }),
      withCode('connect ENOENT /data/socket/.s.PGSQL.5432', { code: 'ENOENT', syscall: 'connect' }),
      withCode('write EPIPE', { code: 'EPIPE', syscall: 'write' }),
      new Error('Connection terminated unexpectedly'),
      new Error('COMMIT; - Client has encountered a connection error and is not queryable'),
    ]) {
      expect(isDatabaseOutage(error), error.message).to.equal(true);
    }
  });

  it("reads through wrapped causes (the ORM wraps the driver's error)", () => {
    const driver = withCode('terminating connection due to administrator command', { code: '57P01' });
    expect(isDatabaseOutage(new Error('insert into ... failed', { cause: driver }))).to.equal(true);
  });

  it('leaves statement errors and other failures to be what they are', () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint', { code: '23505' }),
      withCode('invalid byte sequence for encoding "UTF8": 0x00', { code: '22021' }),
      withCode('syntax error at or near "x"', { code: '42601' }),
      withCode("ENOENT: no such file or directory, open 'x'", { code: 'ENOENT', syscall: 'open' }),
      new TypeError('Cannot read properties of undefined'),
    ]) {
      expect(isDatabaseOutage(error), error.message).to.equal(false);
    }
    expect(isDatabaseOutage('a string')).to.equal(false);
    expect(isDatabaseOutage(undefined)).to.equal(false);
  });
});
