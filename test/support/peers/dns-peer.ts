import dns2 from 'dns2';

const Packet = dns2.Packet as any;

type RecordValue = string | { priority: number; exchange: string } | string[];
/** name -> record type -> values (A/AAAA/CNAME/NS: strings; MX: {priority, exchange}; TXT: string). */
export type Zone = Record<string, Partial<Record<'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'TXT', RecordValue[]>>>;

/**
 * A DNS server on a loopback UDP port (dns2) answering from a record map; unknown names get
 * NXDOMAIN. `failing` makes it answer SERVFAIL to everything. Also serves DNSBL zones: put
 * `4.3.2.1.bl.test` A 127.0.0.2 and TXT records in the map.
 */
export class DnsPeer {
  failing = false;
  private server: ReturnType<typeof dns2.createServer> | undefined;
  port = 0;

  /** `listen`: where to answer; a loopback address and a free port unless stated (port 53 for a resolver a monitor names). */
  constructor(
    readonly zone: Zone,
    private readonly listen: { address: string; port: number } = { address: '127.0.0.1', port: 0 },
  ) {}

  get address(): string {
    return `${this.listen.address}:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = dns2.createServer({
      udp: true,
      handle: (request: any, send: (r: any) => void) => {
        const response: any = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const name = String(question.name).toLowerCase();
        const type = Object.keys(Packet.TYPE).find((t) => (Packet.TYPE as any)[t] === question.type) as keyof Zone[string];
        if (this.failing) {
          response.header.rcode = 2;
          return send(response);
        }
        const records = this.zone[name];
        if (!records) {
          response.header.rcode = Packet.RCODE.NXDOMAIN;
          return send(response);
        }
        for (const value of records[type] ?? []) {
          const base = { name, type: question.type, class: Packet.CLASS.IN, ttl: 60 };
          if (type === 'A' || type === 'AAAA') response.answers.push({ ...base, address: value });
          else if (type === 'CNAME' || type === 'NS') response.answers.push({ ...base, domain: value, ns: value });
          else if (type === 'MX') response.answers.push({ ...base, ...(value as object) });
          else if (type === 'TXT') response.answers.push({ ...base, data: value });
        }
        send(response);
      },
    } as any);
    const listening = await this.server.listen({ udp: { port: this.listen.port, address: this.listen.address } } as any);
    this.port = (listening as any).udp.port;
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
