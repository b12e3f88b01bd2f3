import type { DnsAnswer, HostResolver, TtlHostResolver } from '../../../src/infrastructure/network/node-dns-resolver';

/** Answers every name with these addresses, counting the questions. */
export class FakeHostResolver implements HostResolver {
  asked = 0;
  constructor(private readonly answers: string[]) {}
  async resolveAddresses(): Promise<string[]> {
    this.asked++;
    return this.answers;
  }
}

/** Answers from a table a test changes (unknown names: negative), with TTLs, counting the questions per name. */
export class FakeTtlResolver implements TtlHostResolver {
  readonly asked = new Map<string, number>();
  readonly answers = new Map<string, DnsAnswer>();

  async resolveAddresses(name: string): Promise<string[]> {
    return (await this.resolveWithTtl(name)).addresses;
  }

  async resolveWithTtl(name: string): Promise<DnsAnswer> {
    this.asked.set(name, (this.asked.get(name) ?? 0) + 1);
    return this.answers.get(name) ?? { addresses: [], ttlSeconds: 0, negative: true };
  }

  /** Answers `addresses` for `name`, kept `ttlSeconds`. */
  set(name: string, addresses: string[], ttlSeconds = 60): this {
    this.answers.set(name, { addresses, ttlSeconds, negative: addresses.length === 0 });
    return this;
  }

  timesAsked(name: string): number {
    return this.asked.get(name) ?? 0;
  }
}
