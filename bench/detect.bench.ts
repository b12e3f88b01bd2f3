/**
 * `npm run bench:detect`: how long from a target going down to the first message about it, through
 * the real service (check worker serving three locations, alert rules with confirmation re-checks,
 * notification worker, a webhook channel to a loopback receiver in this process). Settings: 1- and
 * 5-minute intervals x alertConsecutiveChecks 2 and 3 x one and three locations (BENCH_INTERVALS,
 * default 1,5), BENCH_PER_SETTING monitors each (default 8, half HTTP and half TCP), each with a
 * loopback target of its own (an HTTP path that starts answering 503, a TCP listener that closes).
 * Every target goes down at the same moment, 30 s in, each at another point of its monitor's
 * interval: the monitors' slots are moved (their phase) so that target k of a setting goes down
 * (k + 0.5) / n of an interval after its last slot, with one more just after a slot (the worst
 * case), so the run lasts one interval and a minute, and covers the interval evenly. alertRetryInterval is the default 20 s and
 * storms are off (each incident told alone). Every monitor starts with an up state at each location.
 *
 * Per monitor, its floor: from the moment its target went down to when the rules could first decide
 * had every check been instant (floorOf: its locations' grid slots, then confirmation rounds of 20 s
 * from every location; alertConsecutiveChecks failures at half of its locations).
 * Figures per setting (JSON `settings[]`): time to the first message p50/p99/max (`p50Ms`, `p99Ms`,
 * `maxMs`), the worst floor of the setting (`floorMs`: interval + confirmations), and the time
 * beyond each monitor's own floor (`overFloorMs`). Goals: p99 of the time beyond the floor <= 5 s,
 * and the 5-minute default (2 checks) within 5.5 minutes in the worst case. The run lasts the longest
 * interval plus about a minute.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startBenchService } from './support/service';
import { nextSlotAfter } from '../src/domain/scheduling/check-slot';
import { goal, loadAverage, printVerdict, type Goal } from './support/verdict';

const INTERVALS = (process.env.BENCH_INTERVALS ?? '1,5').split(',').map(Number);
const PER_SETTING = Number(process.env.BENCH_PER_SETTING ?? 8);
const RETRY_MS = 20_000;
const SETTLE_MS = 60_000;

const progress = (message: string) => process.stderr.write(`[bench:detect ${new Date().toISOString()}] ${message}\n`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
};

/**
 * When the rules can first decide, had every check been instant: each location fails at its own
 * grid slots after `downAt` and, from the first failure on, at every confirmation round (every
 * location takes part, one retry interval apart); the incident opens once the required share of
 * locations (half, at least one) has `consecutive` failures in a row.
 */
function floorOf(downAt: number, rows: ReadonlyArray<{ intervalMs: number; phaseMs: number }>, consecutive: number): number {
  const required = Math.max(1, Math.ceil(0.5 * rows.length));
  const slotsOf = (row: { intervalMs: number; phaseMs: number }) => {
    const slots: number[] = [];
    let next = nextSlotAfter(new Date(downAt), row.intervalMs, row.phaseMs).getTime();
    for (let k = 0; k < consecutive + 1; k++, next += row.intervalMs) slots.push(next);
    return slots;
  };
  const own = rows.map(slotsOf);
  const first = Math.min(...own.map((slots) => slots[0]!));
  const rounds = Array.from({ length: consecutive + 1 }, (_, k) => first + (k + 1) * RETRY_MS);
  const events = [...new Set([...own.flat(), ...rounds])].sort((a, b) => a - b);
  for (const t of events) {
    const failing = own.filter((slots) => slots.filter((at) => at <= t).length + rounds.filter((at) => at <= t).length >= consecutive);
    if (failing.length >= required) return t;
  }
  return events.at(-1)!;
}

interface Target {
  kind: 'http' | 'tcp';
  url?: string;
  port?: number;
  down: () => void;
}

async function main() {
  const loadBefore = loadAverage();
  // HTTP targets: one server, a path per monitor; TCP targets: a listener per monitor.
  const downPaths = new Set<string>();
  const web = http.createServer((req, res) => res.writeHead(downPaths.has(req.url ?? '') ? 503 : 200).end('ok'));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const webPort = (web.address() as AddressInfo).port;
  const listeners: net.Server[] = [];
  const aTarget = async (kind: 'http' | 'tcp', n: number): Promise<Target> => {
    if (kind === 'http') {
      const pathname = `/t/${n}`;
      return { kind, url: `http://127.0.0.1:${webPort}${pathname}`, down: () => downPaths.add(pathname) };
    }
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    listeners.push(server);
    return { kind, port: (server.address() as AddressInfo).port, down: () => server.close() };
  };

  // The receiver: the first message per monitor (by its public id), with its arrival time.
  const firstMessage = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { event: string; monitor: { id: string } | null };
        if (body.event === 'incident.opened' && body.monitor && !firstMessage.has(body.monitor.id)) firstMessage.set(body.monitor.id, at);
      } catch {
        /* not ours */
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const settings: Array<{ name: string; intervalMinutes: number; consecutive: number; locations: number; targets: Target[] }> = [];
  let n = 0;
  for (const intervalMinutes of INTERVALS) {
    for (const consecutive of [2, 3]) {
      for (const locations of [1, 3]) {
        const targets: Target[] = [];
        for (let i = 0; i < PER_SETTING; i++) targets.push(await aTarget(i % 2 === 0 ? 'http' : 'tcp', n++));
        settings.push({ name: `i${intervalMinutes}-c${consecutive}-l${locations}`, intervalMinutes, consecutive, locations, targets });
      }
    }
  }

  progress('starting the service');
  const service = await startBenchService('detect-service-process');
  try {
    const { monitors } = await service.request<{
      monitors: Array<{ setting: string; index: number; publicId: string; rows: Array<{ intervalMs: number; phaseMs: number }> }>;
    }>({
      type: 'seed',
      receiver: receiverUrl,
      settings: settings.map((s) => ({ ...s, monitors: s.targets.map((t) => ({ kind: t.kind, url: t.url, port: t.port })) })),
    });
    progress(
      `${monitors.length} monitors in ${settings.length} settings; all targets go down at one moment, each at its own point of its interval`,
    );
    const start = Date.now();
    const downAt = start + 30_000;
    const placed = monitors.map((monitor) => {
      const setting = settings.find((s) => s.name === monitor.setting)!;
      const intervalMs = setting.intervalMinutes * 60_000;
      // Where in its interval the target goes down: evenly spread, the first just after a slot.
      const fraction = monitor.index === 0 ? 0.002 : (monitor.index - 0.5) / (PER_SETTING - 1);
      const lastSlot = downAt - fraction * intervalMs;
      const phaseMs = ((lastSlot % intervalMs) + intervalMs) % intervalMs;
      return { monitor, setting, rows: monitor.rows.map((row) => ({ ...row, phaseMs })), phaseMs };
    });
    await service.request({
      type: 'phases',
      phases: placed.map((p) => ({ publicId: p.monitor.publicId, phaseMs: Math.round(p.phaseMs) })),
    });
    const downs = placed.map(({ monitor, setting, rows }) => {
      const floorMs = floorOf(downAt, rows, setting.consecutive) - downAt;
      setTimeout(() => setting.targets[monitor.index]!.down(), downAt - Date.now());
      return { monitor, setting, downAt, floorMs };
    });
    const deadline = downAt + Math.max(...INTERVALS) * 60_000 + 3 * RETRY_MS + SETTLE_MS;
    while (Date.now() < deadline && firstMessage.size < monitors.length) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      progress(`${firstMessage.size} of ${monitors.length} told`);
    }
    const opened = new Map(
      (await service.request<{ rows: Array<{ publicId: string; createdMs: number }> }>({ type: 'incidents' })).rows.map((row) => [
        row.publicId,
        row.createdMs,
      ]),
    );
    const figures = settings.map((setting) => {
      const mine = downs.filter((d) => d.setting === setting);
      const told = mine.filter((d) => firstMessage.has(d.monitor.publicId));
      const detect = told.map((d) => firstMessage.get(d.monitor.publicId)! - d.downAt);
      const over = told.map((d) => firstMessage.get(d.monitor.publicId)! - d.downAt - d.floorMs);
      return {
        setting: setting.name,
        intervalMinutes: setting.intervalMinutes,
        consecutiveChecks: setting.consecutive,
        locations: setting.locations,
        monitors: mine.length,
        told: told.length,
        p50Ms: Math.round(percentile(detect, 0.5)),
        p99Ms: Math.round(percentile(detect, 0.99)),
        maxMs: Math.round(Math.max(0, ...detect)),
        // The setting's worst case: down just after a slot, so the interval, then the confirmations.
        floorMs: setting.intervalMinutes * 60_000 + (setting.locations > 1 ? setting.consecutive : setting.consecutive - 1) * RETRY_MS,
        overFloorMs: {
          p50: Math.round(percentile(over, 0.5)),
          p99: Math.round(percentile(over, 0.99)),
          max: Math.round(Math.max(0, ...over)),
        },
        // Of the time beyond the floor: until the incident opened (checks, recording), and from then to the message (routing, delivery).
        openedOverFloorMs: {
          max: Math.round(Math.max(0, ...told.map((d) => (opened.get(d.monitor.publicId) ?? NaN) - d.downAt - d.floorMs))),
        },
        toldAfterOpenedMs: {
          max: Math.round(Math.max(0, ...told.map((d) => firstMessage.get(d.monitor.publicId)! - (opened.get(d.monitor.publicId) ?? NaN)))),
        },
      };
    });
    const fiveMinuteDefault = figures.find((f) => f.intervalMinutes === 5 && f.consecutiveChecks === 2 && f.locations === 1);
    const goals: Record<string, Goal> = {};
    for (const f of figures) {
      goals[`${f.setting}.told`] = goal(f.told, '==', f.monitors, 'monitors told of their outage');
      goals[`${f.setting}.overFloorMs.p99`] = goal(f.overFloorMs.p99, '<=', 5_000, "ms beyond each monitor's floor (p99)");
    }
    if (INTERVALS.includes(5)) goals.fiveMinuteDefaultWorstMs = goal(fiveMinuteDefault?.maxMs ?? null, '<=', 330_000, 'ms, worst case');
    printVerdict(
      {
        date: new Date().toISOString(),
        retryIntervalMs: RETRY_MS,
        perSetting: PER_SETTING,
        settings: figures,
        fiveMinuteDefaultWorstMs: fiveMinuteDefault?.maxMs ?? null,
      },
      goals,
      loadBefore,
    );
  } finally {
    await service.stop();
    web.close();
    receiver.close();
    for (const listener of listeners) listener.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
