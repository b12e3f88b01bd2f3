import { expect } from 'chai';
import type { WireChange } from '../../../../src/application/probes/wire';
import { ServerClock, type ProbeApiClient } from '../../../../src/infrastructure/probes/client/probe-api-client';
import { RemoteCheckSchedule } from '../../../../src/infrastructure/probes/client/remote-check-schedule';

/** The probe API as the schedule calls it: change pages as given, each call noted. */
class ScriptedApi {
  readonly calls: { path: string; body: Record<string, unknown> }[] = [];
  changes: WireChange[] = [];
  async call<T>(path: string, body: Record<string, unknown>): Promise<T> {
    this.calls.push({ path, body });
    if (path === '/schedule/changes') return { changes: this.changes, readThrough: this.changes.at(-1)?.seq ?? 0, more: false } as T;
    return { rows: [], plans: [] } as T;
  }
  heldAsked(): unknown[] {
    return this.calls.filter((c) => c.path === '/schedule/held').map((c) => c.body.monitorIds);
  }
}

const change = (seq: number, monitorId: number, gone?: true): WireChange => ({
  seq,
  monitorId,
  triggered: false,
  at: 1_000,
  ...(gone ? { gone } : {}),
});

describe('RemoteCheckSchedule (a probe reading the changes of its monitors)', () => {
  const setup = () => {
    const api = new ScriptedApi();
    return { api, schedule: new RemoteCheckSchedule(api as unknown as ProbeApiClient, new ServerClock(), 'office') };
  };

  it('does not ask again about monitors a change marked gone: they have no row, and the dispatcher drops them', async () => {
    const { api, schedule } = setup();
    api.changes = [change(1, 1), change(2, 2, true), change(3, 3, true)];
    expect((await schedule.changesAfter(0)).map((c) => c.monitorId)).to.deep.equal([1, 2, 3]);
    expect(await schedule.held('probe:a:0', [1, 2, 3])).to.deep.equal([]);
    expect(api.heldAsked()).to.deep.equal([[1]]);
    // All gone: no call at all.
    api.changes = [change(4, 2, true)];
    await schedule.changesAfter(3);
    expect(await schedule.held('probe:a:0', [2])).to.deep.equal([]);
    expect(api.heldAsked()).to.have.length(1);
  });

  it('asks about a monitor again once a later read no longer marks it gone (resumed, put back at the location)', async () => {
    const { api, schedule } = setup();
    api.changes = [change(1, 2, true)];
    await schedule.changesAfter(0);
    api.changes = [change(2, 2)];
    await schedule.changesAfter(1);
    await schedule.held('probe:a:0', [2]);
    expect(api.heldAsked()).to.deep.equal([[2]]);
  });
});
