import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetric } from 'prom2javascript';

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** A sample whose value is NaN (prom-client writes `Nan`, which Prometheus reads). */
const NAN_SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{.*\})?\s+nan$/i;

/**
 * TEST SUPPORT ONLY: Prometheus' text format read by a real parser (prom2javascript: it refuses
 * lines it cannot parse and histograms whose +Inf bucket is not their count), with lookups of one
 * series by its exact label set. That parser knows no NaN, which the format allows (the event-loop
 * gauges are NaN until their monitor has a sample): NaN samples are set aside before parsing, and
 * only unlabelled ones can be looked up (as NaN).
 */
export class Scrape {
  private constructor(
    private readonly families: Record<string, PromMetric>,
    private readonly nan: ReadonlySet<string>,
  ) {}

  static async of(text: string): Promise<Scrape> {
    const lines = text.split('\n');
    const nan = new Set(lines.map((line) => NAN_SAMPLE.exec(line)?.[1]).filter((name): name is string => name !== undefined));
    const families = await getMetricsFromIterator(lines.filter((line) => !NAN_SAMPLE.test(line))[Symbol.iterator]());
    return new Scrape(families, nan);
  }

  family(name: string): PromMetric {
    const family = this.families[name];
    if (!family) throw new Error(`no metric family ${name}`);
    return family;
  }

  has(name: string): boolean {
    return name in this.families;
  }

  /** A counter's or gauge's value for exactly these labels (undefined if the series is absent). */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    if (this.nan.has(name) && Object.keys(labels).length === 0) return NaN;
    return (this.family(name).data as PromData[]).find((d) => sameLabels(d.labels, labels))?.value;
  }

  /** A histogram series for exactly these labels: cumulative buckets by bound, count and sum. */
  histogram(name: string, labels: Record<string, string> = {}): PromHistogramData | undefined {
    const family = this.family(name);
    if (family.type !== 'histogram') throw new Error(`${name} is a ${family.type}`);
    return (family.data as PromHistogramData[]).find((d) => sameLabels(d.labels, labels));
  }

  /** Every label set of a family. */
  labelSets(name: string): Record<string, string>[] {
    return (this.family(name).data as Array<{ labels: Record<string, string> }>).map((d) => d.labels);
  }
}
