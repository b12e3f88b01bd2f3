import { expect } from 'chai';
import { describeStartFailure } from '../../../src/main/start-failure';

const systemError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('why the service could not start, in one line', () => {
  const config = { port: 3000, host: '0.0.0.0' };

  it('names the port that is taken or needs privileges, and a HOST that is not local', () => {
    expect(
      describeStartFailure(
        systemError('listen EADDRINUSE: address already in use 0.0.0.0:3000', {
          code: 'EADDRINUSE',
          syscall: 'listen',
          address: '0.0.0.0',
          port: 3000,
        }),
        config,
      ),
    ).to.equal('port 3000 is in use (EADDRINUSE)');
    expect(
      describeStartFailure(
        systemError('listen EACCES: permission denied 0.0.0.0:80', { code: 'EACCES', syscall: 'listen', port: 80 }),
        config,
      ),
    ).to.equal('port 80 needs more privileges than this process has (EACCES)');
    expect(
      describeStartFailure(systemError('listen EADDRNOTAVAIL', { code: 'EADDRNOTAVAIL', syscall: 'listen', address: '10.9.9.9' }), config),
    ).to.equal('HOST 10.9.9.9 is not an address of this machine (EADDRNOTAVAIL)');
  });

  it("names the database that refuses or does not resolve, also when a name's every address failed (an empty AggregateError)", () => {
    const refused = (address: string) =>
      systemError(`connect ECONNREFUSED ${address}:5432`, { code: 'ECONNREFUSED', syscall: 'connect', address, port: 5432 });
    expect(describeStartFailure(refused('10.0.0.5'))).to.equal('the database at 10.0.0.5:5432 refused the connection (ECONNREFUSED)');
    expect(
      describeStartFailure(Object.assign(new AggregateError([refused('::1'), refused('127.0.0.1')], ''), { code: 'ECONNREFUSED' })),
    ).to.equal('the database at [::1]:5432 refused the connection (ECONNREFUSED)');
    expect(describeStartFailure(systemError('getaddrinfo ENOTFOUND db.internal', { code: 'ENOTFOUND', syscall: 'getaddrinfo' }))).to.equal(
      'the database host db.internal does not resolve (ENOTFOUND)',
    );
  });

  it('says what PostgreSQL refused, with its SQLSTATE', () => {
    expect(describeStartFailure(systemError('password authentication failed for user "monitoring"', { code: '28P01' }))).to.equal(
      'the database refused the password: password authentication failed for user "monitoring" (28P01)',
    );
    expect(describeStartFailure(systemError('database "monitoring" does not exist', { code: '3D000' }))).to.equal(
      'the database does not exist: database "monitoring" does not exist (3D000)',
    );
  });

  it('keeps other messages on one line, and never answers "undefined" or an empty cause', () => {
    expect(describeStartFailure(new Error('initdb failed:\n  could not create directory'))).to.equal(
      'initdb failed: could not create directory',
    );
    expect(
      describeStartFailure(systemError("EACCES: permission denied, mkdir '/srv/data'", { code: 'EACCES', syscall: 'mkdir' })),
    ).to.equal("EACCES: permission denied, mkdir '/srv/data'");
    expect(describeStartFailure(undefined)).to.equal('an unknown error (no detail was given)');
    expect(describeStartFailure(systemError('', { code: 'EIO' }))).to.equal('Error (EIO)');
  });
});
