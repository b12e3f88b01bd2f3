import type { Metric, Registry } from 'prom-client';

/**
 * Counters and histograms whose series are bound once and then updated with plain arithmetic.
 * prom-client's own `inc`/`observe` (and its `labels()` children) hash and validate the labels on
 * every call, which the check engine would pay once per check; these leave that work to the scrape,
 * where the registry reads them through `get()` as it reads any metric of its own.
 */
export interface CounterSeries {
  inc(by?: number): void;
}

export interface HistogramSeries {
  observe(value: number): void;
}

type Labels<L extends string> = Readonly<Record<L, string>>;

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

class CounterCell implements CounterSeries {
  value = 0;
  constructor(readonly labels: object) {}
  inc(by = 1): void {
    this.value += by;
  }
}

class HistogramCell implements HistogramSeries {
  /** Per bucket, the observations that fell in it (not cumulative); the last one is +Inf. */
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: object,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }
  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

interface SeriesConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: Registry[];
}

abstract class SeriesMetric<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  protected constructor(config: SeriesConfig<L>) {
    this.name = config.name;
    this.help = config.help;
    // The registry takes anything with a name and get(); its typings list only prom-client's own classes.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Metric);
  }

  protected abstract samples(): Sample[];

  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.samples() };
  }
}

export class SeriesCounter<L extends string> extends SeriesMetric<L> {
  readonly type = 'counter';
  private readonly cells: CounterCell[] = [];

  constructor(config: SeriesConfig<L>) {
    super(config);
  }

  /** A new series (keep it: each call binds another one). */
  series(labels: Labels<L>): CounterSeries {
    const cell = new CounterCell(labels);
    this.cells.push(cell);
    return cell;
  }

  protected samples(): Sample[] {
    return this.cells.map((cell) => ({ labels: { ...cell.labels }, value: cell.value }));
  }
}

export class SeriesHistogram<L extends string> extends SeriesMetric<L> {
  readonly type = 'histogram';
  private readonly cells: HistogramCell[] = [];
  private readonly bounds: readonly number[];

  constructor(config: SeriesConfig<L> & { buckets: readonly number[] }) {
    super(config);
    this.bounds = [...config.buckets].sort((a, b) => a - b);
  }

  /** A new series (keep it: each call binds another one). */
  series(labels: Labels<L>): HistogramSeries {
    const cell = new HistogramCell(labels, this.bounds);
    this.cells.push(cell);
    return cell;
  }

  protected samples(): Sample[] {
    return this.cells.flatMap((cell) => {
      let cumulative = 0;
      const buckets = cell.counts.map((count, i): Sample => {
        cumulative += count;
        return {
          labels: { ...cell.labels, le: i < this.bounds.length ? this.bounds[i]! : '+Inf' },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        };
      });
      return [
        ...buckets,
        { labels: { ...cell.labels }, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: { ...cell.labels }, value: cell.count, metricName: `${this.name}_count` },
      ];
    });
  }
}
