import dns2 from 'dns2';

const { Packet } = dns2;

export interface ZoneRecords {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  MX?: Array<{ exchange: string; priority: number }>;
  TXT?: string[];
}

export interface TestDns {
  /** `127.0.0.1:port`, the value for DNS_SERVERS. */
  readonly server: string;
  /** Adds or replaces a name's records (lowercase, no trailing dot). */
  set(name: string, records: ZoneRecords): void;
  close(): Promise<void>;
}

/** Names every test may rely on; tests add their own with set(). */
export const FIXTURE_ZONE: Record<string, ZoneRecords> = {
  'www.monitor-fixture.com': { A: ['93.184.216.34'] },
  'public.monitor-fixture.com': { A: ['93.184.216.34'], AAAA: ['2606:2800:220:1::1'] },
  'origin.monitor-fixture.com': { A: ['93.184.216.35'] },
  'mail.monitor-fixture.com': { A: ['93.184.216.36'], MX: [{ exchange: 'mail.monitor-fixture.com', priority: 10 }] },
  'rebind.monitor-fixture.com': { A: ['10.0.0.5'] },
  'mixed.monitor-fixture.com': { A: ['93.184.216.34', '127.0.0.1'] },
  'v6private.monitor-fixture.com': { AAAA: ['fd00::1'] },
  'alias.monitor-fixture.com': { CNAME: 'rebind.monitor-fixture.com' },
  'public-alias.monitor-fixture.com': { CNAME: 'www.monitor-fixture.com' },
  'txt-only.monitor-fixture.com': { TXT: ['v=spf1 -all'] },
};

const TYPES: Record<number, keyof ZoneRecords> = {
  [Packet.TYPE.A]: 'A',
  [Packet.TYPE.AAAA]: 'AAAA',
  [Packet.TYPE.MX]: 'MX',
  [Packet.TYPE.TXT]: 'TXT',
  [Packet.TYPE.CNAME]: 'CNAME',
};

/**
 * An authoritative DNS server on loopback for tests: answers from an in-memory zone, follows
 * CNAMEs like a recursive resolver would, NXDOMAIN for unknown names. Never forwards anywhere.
 */
export async function startTestDns(zone: Record<string, ZoneRecords> = FIXTURE_ZONE): Promise<TestDns> {
  const records = new Map(Object.entries(zone));
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question) return void send(response);
      let name = question.name.toLowerCase().replace(/\.$/, '');
      const wanted = TYPES[question.type];
      let entry = records.get(name);
      if (!entry) {
        response.header.rcode = 3;
        return void send(response);
      }
      for (let hops = 0; entry?.CNAME && wanted !== 'CNAME' && hops < 8; hops++) {
        response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: entry.CNAME } as never);
        name = entry.CNAME;
        entry = records.get(name);
      }
      const base = { name, class: Packet.CLASS.IN, ttl: 60 };
      if (entry && wanted === 'A')
        for (const address of entry.A ?? []) response.answers.push({ ...base, type: Packet.TYPE.A, address } as never);
      if (entry && wanted === 'AAAA')
        for (const address of entry.AAAA ?? []) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address } as never);
      if (entry && wanted === 'MX')
        for (const mx of entry.MX ?? []) response.answers.push({ ...base, type: Packet.TYPE.MX, ...mx } as never);
      if (entry && wanted === 'TXT')
        for (const data of entry.TXT ?? []) response.answers.push({ ...base, type: Packet.TYPE.TXT, data } as never);
      if (entry && wanted === 'CNAME' && entry.CNAME)
        response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: entry.CNAME } as never);
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${addresses.udp!.port}`,
    set: (name, value) => void records.set(name.toLowerCase(), value),
    close: () => server.close(),
  };
}
