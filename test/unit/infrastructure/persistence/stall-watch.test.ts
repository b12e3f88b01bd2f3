import { expect } from 'chai';
import sinon from 'sinon';
import {
  DatabaseStalledError,
  StallWatch,
  type DatabaseDeadlines,
  type ServerProbe,
} from '../../../../src/infrastructure/persistence/stall-watch';
import { runInScope, ServiceStoppingError, WorkScope, commits } from '../../../../src/infrastructure/persistence/work-scope';

const DEADLINES: DatabaseDeadlines = { connectMs: 5_000, acquireMs: 10_000, stallMs: 3_000, suspectAfterMs: 1_000 };

/** A probe whose server answers or stays silent as the test says; counts its probes. */
class ScriptedProbe implements ServerProbe {
  silent = false;
  probes = 0;
  answers(timeoutMs: number): Promise<boolean> {
    this.probes++;
    if (!this.silent) return Promise.resolve(true);
    return new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A connection as far as ending it goes: counts its ends. */
const aConnection = () => ({
  ends: 0,
  end() {
    this.ends++;
    return Promise.resolve();
  },
});

describe('StallWatch', () => {
  let clock: sinon.SinonFakeTimers;
  let probe: ScriptedProbe;
  let watch: StallWatch;

  beforeEach(() => {
    clock = sinon.useFakeTimers();
    probe = new ScriptedProbe();
    watch = new StallWatch(probe, DEADLINES, undefined, () => Date.now());
  });
  afterEach(async () => {
    await watch.close();
    clock.restore();
  });

  it('does not probe while no connection is held long', async () => {
    const connection = aConnection();
    watch.hold(connection);
    await clock.tickAsync(900);
    watch.release(connection);
    await clock.tickAsync(10_000);
    expect(probe.probes).to.equal(0);
  });

  it('sets no timer once nothing is held: a released connection leaves nothing to wake the process', async () => {
    const [one, two] = [aConnection(), aConnection()];
    watch.hold(one);
    watch.hold(two);
    expect(clock.countTimers(), 'a round while connections are held').to.equal(1);
    watch.release(one);
    expect(clock.countTimers(), 'still one held').to.equal(1);
    watch.release(two);
    expect(clock.countTimers(), 'none held').to.equal(0);
    await watch.acquire(
      () => Promise.resolve(one),
      () => undefined,
    );
    watch.hold(one);
    await clock.tickAsync(1_500);
    expect(probe.probes, 'held past suspicion: probed as before').to.be.greaterThan(0);
    watch.release(one);
    expect(clock.countTimers()).to.equal(0);
  });

  it('leaves a slow statement on an answering server alone', async () => {
    const connection = aConnection();
    watch.hold(connection);
    await clock.tickAsync(30_000);
    expect(probe.probes).to.be.greaterThan(0);
    expect(connection.ends).to.equal(0);
    expect(watch.stalled).to.equal(false);
  });

  it('judges a silent server stalled: resets held connections, refuses new ones at once, fails waiting acquisitions', async () => {
    probe.silent = true;
    const held = aConnection();
    watch.hold(held);
    const waiting = watch.acquire(
      () => new Promise<ReturnType<typeof aConnection>>(() => undefined),
      () => undefined,
    );
    const failed = waiting.catch((error: unknown) => error);
    await clock.tickAsync(DEADLINES.suspectAfterMs + DEADLINES.stallMs + 600);
    expect(watch.stalled).to.equal(true);
    expect(held.ends).to.equal(1);
    expect(await failed).to.be.instanceOf(DatabaseStalledError);
    expect(() => watch.admit()).to.throw(DatabaseStalledError);

    probe.silent = false;
    await clock.tickAsync(DEADLINES.stallMs + 1_000); // the probe sent while silent times out first
    expect(watch.stalled).to.equal(false);
    expect(() => watch.admit()).not.to.throw();
  });

  it('hands back a connection the pool gives after the acquisition lost to the stall', async () => {
    probe.silent = true;
    watch.hold(aConnection());
    let give: (connection: ReturnType<typeof aConnection>) => void = () => undefined;
    const released: unknown[] = [];
    const late = aConnection();
    const waiting = watch
      .acquire(
        () => new Promise<ReturnType<typeof aConnection>>((resolve) => (give = resolve)),
        (connection) => released.push(connection),
      )
      .catch((error: unknown) => error);
    await clock.tickAsync(DEADLINES.suspectAfterMs + DEADLINES.stallMs + 600);
    expect(await waiting).to.be.instanceOf(DatabaseStalledError);
    give(late);
    await clock.tickAsync(0);
    expect(released).to.deep.equal([late]);
  });

  it('refuses work that a stop cut, and resets only the connections that work holds', async () => {
    const cut = new WorkScope();
    const kept = new WorkScope();
    const cutConnection = aConnection();
    const keptConnection = aConnection();
    runInScope(cut, () => watch.hold(cutConnection));
    runInScope(kept, () => watch.hold(keptConnection));
    expect(cut.cutNow()).to.equal(true);
    expect(watch.abortHeld('cut')).to.equal(1);
    expect(cutConnection.ends).to.equal(1);
    expect(keptConnection.ends).to.equal(0);
    expect(() => runInScope(cut, () => watch.admit())).to.throw(ServiceStoppingError);
    expect(() => runInScope(kept, () => watch.admit())).not.to.throw();
  });
});

describe('WorkScope', () => {
  it('is not cut once it sent something that commits: cutting it would answer 503 to a write that may have happened', () => {
    const scope = new WorkScope();
    scope.noteCommitSent();
    expect(scope.cutNow()).to.equal(false);
    expect(scope.cut).to.equal(false);
  });

  it('tells the statements that commit: a COMMIT, or a write outside a transaction', () => {
    expect(commits('COMMIT;', true)).to.equal(true);
    expect(commits('insert into tags (name) values ($1)', false)).to.equal(true);
    expect(commits('insert into tags (name) values ($1)', true)).to.equal(false);
    expect(commits('with moved as (update x set y = 1 returning *) select * from moved', false)).to.equal(true);
    for (const text of ['select 1', 'BEGIN;', 'ROLLBACK', 'savepoint a', 'release savepoint a', "select set_config('a', 'b', false)"]) {
      expect(commits(text, false), text).to.equal(false);
    }
  });
});
