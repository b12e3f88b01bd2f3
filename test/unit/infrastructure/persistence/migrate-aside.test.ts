import { expect } from 'chai';
import { postableError, postedError, type PostedError } from '../../../../src/infrastructure/persistence/migrate-aside';
import { describeStartFailure } from '../../../../src/main/start-failure';

/** An error crosses from the migrations' child process as a message on its IPC channel does (JSON). */
const across = (error: unknown) => postedError(JSON.parse(JSON.stringify(postableError(error))) as PostedError);

const refused = (port: number) =>
  Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
    address: '127.0.0.1',
    port,
  });

describe("an error from the migrations' child process", () => {
  it('keeps what names its cause: a refused connection reads as if the process had met it', () => {
    const original = refused(5432);
    const error = across(original);
    expect(describeStartFailure(error)).to.equal(describeStartFailure(refused(5432)));
    expect(describeStartFailure(error)).to.equal('the database at 127.0.0.1:5432 refused the connection (ECONNREFUSED)');
    expect(error.stack).to.equal(original.stack);
  });

  it("keeps an AggregateError's errors, a cause, PostgreSQL's code and the error's name", () => {
    const all = across(new AggregateError([refused(1), refused(2)], ''));
    expect(describeStartFailure(all)).to.equal('the database at 127.0.0.1:1 refused the connection (ECONNREFUSED)');
    const pg = Object.assign(new Error('password authentication failed for user "x"'), { code: '28P01', severity: 'FATAL' });
    const wrapped = across(Object.assign(new TypeError('outer'), { cause: pg }));
    expect(wrapped.name).to.equal('TypeError');
    expect(describeStartFailure((wrapped as Error & { cause: Error }).cause)).to.equal(
      'the database refused the password: password authentication failed for user "x" (28P01)',
    );
    expect(across('a string').message).to.equal('a string');
  });
});
