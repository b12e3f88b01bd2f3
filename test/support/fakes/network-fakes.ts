import type { HostResolver } from '../../../src/infrastructure/network/node-dns-resolver';

/** Answers every name with these addresses, counting the questions. */
export class FakeHostResolver implements HostResolver {
  asked = 0;
  constructor(private readonly answers: string[]) {}
  async resolveAddresses(): Promise<string[]> {
    this.asked++;
    return this.answers;
  }
}
