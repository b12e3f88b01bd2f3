import { expect } from 'chai';
import sinon from 'sinon';
import pino from 'pino';
import { startNotificationWorker, type Deliverer, type WorkNoticeHandlers } from '../../../src/interfaces/jobs/notification-worker';
import type { RouteOutboxEvents } from '../../../src/application/notifications/route-outbox-events';
import type { SettledDelivery } from '../../../src/application/notifications/deliver-due-notifications';

const nothingToRoute = { execute: async () => 0, msUntilStormDue: async () => null } as unknown as RouteOutboxEvents;
const handled = (id: string): SettledDelivery => ({ id, channelId: 'c', attempt: 1, next: { status: 'delivered' }, settled: true });

/** A deliverer whose rounds the test scripts: each round answers one delivery, a `held` round only when the test lets it. */
class ScriptedDeliverer implements Deliverer {
  readonly owners: string[] = [];
  held = false;
  private readonly waiting: Array<() => void> = [];

  async execute(owner: string): Promise<SettledDelivery[]> {
    this.owners.push(owner);
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return [handled(`d-${this.owners.length}`)];
  }

  release(): void {
    this.held = false;
    for (const go of this.waiting.splice(0)) go();
  }
}

describe('notification worker loop: a stalled round does not hold back the next', () => {
  let timers: sinon.SinonFakeTimers;
  beforeEach(() => {
    timers = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => timers.restore());

  it('starts the next round beside a round still waiting on its sends after stallMs, each round leasing under its own name', async () => {
    const deliverer = new ScriptedDeliverer();
    deliverer.held = true;
    const worker = startNotificationWorker(nothingToRoute, [deliverer], pino({ level: 'silent' }), {
      owner: 'w',
      pollMs: 50,
      around: (work) => work(),
      stallMs: 1_000,
      maxRounds: 3,
    });
    await timers.tickAsync(50);
    expect(deliverer.owners, 'the first round, waiting').to.deep.equal(['w#1']);
    await timers.tickAsync(999);
    expect(deliverer.owners).to.have.length(1);
    await timers.tickAsync(2);
    expect(deliverer.owners, 'stalled: a second round beside it').to.deep.equal(['w#1', 'w#2']);
    await timers.tickAsync(5_000);
    expect(deliverer.owners, 'at most maxRounds at once').to.deep.equal(['w#1', 'w#2', 'w#3']);
    deliverer.release();
    const stopping = worker.stop();
    await timers.tickAsync(0);
    await stopping;
    expect(deliverer.owners, 'the three ended; none started once stopping').to.have.length(3);
  });

  it('runs one round at a time while rounds end within stallMs', async () => {
    const deliverer = new ScriptedDeliverer();
    const worker = startNotificationWorker(nothingToRoute, [deliverer], pino({ level: 'silent' }), {
      owner: 'w',
      pollMs: 50,
      around: (work) => work(),
      stallMs: 1_000,
    });
    let concurrent = 0;
    let most = 0;
    const execute = deliverer.execute.bind(deliverer);
    deliverer.execute = async (owner) => {
      most = Math.max(most, ++concurrent);
      try {
        await new Promise<void>((resolve) => setTimeout(resolve, 300));
        return await execute(owner);
      } finally {
        concurrent--;
      }
    };
    await timers.tickAsync(5_000);
    expect(deliverer.owners.length).to.be.greaterThan(5);
    expect(most).to.equal(1);
    const stopping = worker.stop();
    await timers.tickAsync(300);
    await stopping;
  });

  it('stops only once every running round has ended', async () => {
    const deliverer = new ScriptedDeliverer();
    deliverer.held = true;
    const worker = startNotificationWorker(nothingToRoute, [deliverer], pino({ level: 'silent' }), {
      owner: 'w',
      pollMs: 50,
      around: (work) => work(),
      stallMs: 100,
    });
    await timers.tickAsync(260);
    expect(deliverer.owners).to.have.length(3);
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await timers.tickAsync(1_000);
    expect(stopped, 'rounds still waiting').to.equal(false);
    deliverer.release();
    await stopping;
    expect(deliverer.owners, 'none started after stop').to.have.length(3);
  });

  it('comes back when a storm is due to tell rather than at its next poll, and polls as usual when none is', async () => {
    const rounds: number[] = [];
    let stormDueIn: number | null = 120;
    const route = {
      execute: async () => {
        rounds.push(timers.now);
        return 0;
      },
      msUntilStormDue: async () => stormDueIn,
    } as unknown as RouteOutboxEvents;
    const idle: Deliverer = { execute: async () => [] };
    const started = timers.now;
    const worker = startNotificationWorker(route, [idle], pino({ level: 'silent' }), {
      owner: 'w',
      pollMs: 1_000,
      around: (work) => work(),
    });
    await timers.tickAsync(1_000);
    expect(
      rounds.map((at) => at - started),
      'the first round at the poll',
    ).to.deep.equal([1_000]);
    await timers.tickAsync(120);
    expect(
      rounds.map((at) => at - started),
      'the next when the storm is due, 120 ms later',
    ).to.deep.equal([1_000, 1_120]);
    stormDueIn = 0;
    await timers.tickAsync(120);
    expect(rounds).to.have.length(3);
    await timers.tickAsync(50);
    expect(rounds.length, 'a storm due now that the round could not tell: tried again after 50 ms, not in a loop').to.equal(4);
    stormDueIn = null;
    await timers.tickAsync(50);
    expect(rounds).to.have.length(5);
    await timers.tickAsync(999);
    expect(rounds.length, 'no storm: the poll again').to.equal(5);
    await timers.tickAsync(1);
    expect(rounds).to.have.length(6);
    const stopping = worker.stop();
    await timers.tickAsync(0);
    await stopping;
  });

  it('hearing notices, sleeps until its soonest due delivery or a notice (at most the safety poll); losing them, polls again', async () => {
    const rounds: number[] = [];
    const route = {
      execute: async () => {
        rounds.push(timers.now);
        return 0;
      },
      msUntilStormDue: async () => null,
    } as unknown as RouteOutboxEvents;
    let dueIn: number | null = 5_000;
    const deliverer: Deliverer = { execute: async () => [], msUntilDue: async () => dueIn };
    let heard: WorkNoticeHandlers | undefined;
    const started = timers.now;
    const worker = startNotificationWorker(route, [deliverer], pino({ level: 'silent' }), {
      owner: 'w',
      pollMs: 1_000,
      safetyPollMs: 60_000,
      around: (work) => work(),
      listen: async (handlers) => {
        heard = handlers;
        return async () => undefined;
      },
    });
    await timers.tickAsync(0);
    expect(
      rounds.map((at) => at - started),
      'listening: a round at once takes what came before',
    ).to.deep.equal([0]);
    await timers.tickAsync(4_999);
    expect(rounds, 'no poll after 1 s: the delivery is due in 5 s').to.have.length(1);
    await timers.tickAsync(1);
    expect(rounds.map((at) => at - started)).to.deep.equal([0, 5_000]);
    dueIn = null;
    await timers.tickAsync(1_000);
    expect(rounds, 'nothing due: it sleeps').to.have.length(2);
    heard!.notice();
    await timers.tickAsync(0);
    expect(
      rounds.map((at) => at - started),
      'a notice wakes it at once',
    ).to.deep.equal([0, 5_000, 6_000]);
    await timers.tickAsync(59_999);
    expect(rounds, 'nothing due and no notice: the safety poll').to.have.length(3);
    await timers.tickAsync(1);
    expect(rounds).to.have.length(4);
    heard!.lost();
    await timers.tickAsync(0);
    expect(rounds, 'the channel lost: a round at once').to.have.length(5);
    await timers.tickAsync(1_000);
    expect(rounds.length, 'then the poll, notices missed meanwhile').to.equal(6);
    const stopping = worker.stop();
    await timers.tickAsync(0);
    await stopping;
  });
});
