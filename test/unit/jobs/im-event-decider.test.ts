import { expect } from 'chai';
import pino from 'pino';
import { startImEventDecider } from '../../../src/interfaces/jobs/im-event-decider';
import type { WorkNoticeHandlers } from '../../../src/interfaces/jobs/notification-worker';
import { waitFor } from '../../support/wait-for';

/** A log of `pending` events decided `per` a round at most, each round's limit recorded; `fail` rounds throw first. */
function aLog(pending: number, options: { fail?: number; busy?: number } = {}) {
  const state = { pending, rounds: [] as Array<number | undefined>, fail: options.fail ?? 0, busy: options.busy ?? 0 };
  return {
    state,
    decide: {
      async decideNext(limit?: number): Promise<number | null> {
        state.rounds.push(limit);
        if (state.busy > 0) {
          state.busy--;
          return null;
        }
        if (state.fail > 0) {
          state.fail--;
          throw new Error('database refused');
        }
        const decided = Math.min(state.pending, limit ?? 500);
        state.pending -= decided;
        return decided;
      },
    },
  };
}

const silent = pino({ level: 'silent' });

describe('the event decider loop', () => {
  it('decides what a previous run left at start, round after round until the log is empty, and again on a notice', async () => {
    const log = aLog(1_200);
    let handlers!: WorkNoticeHandlers;
    const decider = await startImEventDecider(log.decide, silent, {
      listen: async (h) => {
        handlers = h;
        return async () => undefined;
      },
    });
    try {
      await waitFor(() => log.state.pending === 0, { what: 'the leftovers decided' });
      // 500 + 500 + 200, then a round that finds nothing.
      await waitFor(() => log.state.rounds.length === 4, { what: 'the empty round' });
      log.state.pending = 3;
      handlers.notice();
      await waitFor(() => log.state.pending === 0, { what: 'the notice acted on' });
    } finally {
      await decider.stop();
    }
  });

  it('tries a failed round again, after three failures in a row one event a round, and back to full rounds once one succeeds', async () => {
    const log = aLog(3, { fail: 3 });
    const decider = await startImEventDecider(log.decide, silent, { listen: async () => async () => undefined });
    try {
      await waitFor(() => log.state.pending === 0, { timeoutMs: 5_000, what: 'the events decided after the failures' });
      // Three failed full rounds (100, 200, 400 ms apart), then one event alone, then full rounds again.
      expect(log.state.rounds.slice(0, 5)).to.deep.equal([undefined, undefined, undefined, 1, undefined]);
    } finally {
      await decider.stop();
    }
  });

  it('while another process holds the turn, tries again shortly rather than waiting for a notice', async () => {
    const log = aLog(2, { busy: 3 });
    const decider = await startImEventDecider(log.decide, silent, { listen: async () => async () => undefined, busyMs: 5 });
    try {
      await waitFor(() => log.state.pending === 0, { what: 'the events decided once the turn was free' });
      expect(log.state.rounds.length).to.be.at.least(4);
    } finally {
      await decider.stop();
    }
  });

  it('waits gatherMs for more events before a round, so events committed in many small appends are decided together; not after a full round', async () => {
    const decided: Array<{ at: number; events: number }> = [];
    let pending = 0;
    let handlers!: WorkNoticeHandlers;
    const decider = await startImEventDecider(
      {
        async decideNext(limit?: number) {
          const events = Math.min(pending, limit ?? 500);
          pending -= events;
          decided.push({ at: performance.now(), events });
          return events;
        },
      },
      silent,
      {
        listen: async (h) => {
          handlers = h;
          return async () => undefined;
        },
        gatherMs: 150,
      },
    );
    try {
      // The round at start finds nothing; then three appends 20 ms apart, each with its notice.
      await waitFor(() => decided.length === 1, { what: 'the round at start' });
      for (const events of [3, 4, 5]) {
        pending += events;
        handlers.notice();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await waitFor(() => pending === 0 && decided.length >= 3, { what: 'the appends decided' });
      expect(decided.slice(1).map((round) => round.events)).to.deep.equal([12, 0]);

      // A backlog: full rounds follow each other at once; the round after the last, not full, waits.
      decided.length = 0;
      pending = 1_200;
      handlers.notice();
      await waitFor(() => decided.length === 4, { what: 'the backlog decided' });
      expect(decided.map((round) => round.events)).to.deep.equal([500, 500, 200, 0]);
      expect(decided[1]!.at - decided[0]!.at).to.be.below(75);
      expect(decided[2]!.at - decided[1]!.at).to.be.below(75);
      expect(decided[3]!.at - decided[2]!.at).to.be.at.least(140);
    } finally {
      await decider.stop();
    }
  });
});
