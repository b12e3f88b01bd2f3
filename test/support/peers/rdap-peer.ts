import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Registration {
  expiresAt: string;
  registrar: string;
}

/**
 * A registry on loopback: an HTTP server with the IANA-style bootstrap (/dns.json) naming itself
 * for the `test` TLD, RDAP answers under /rdap/domain/{name}, and a port-43 WHOIS server that
 * refers the `whois` TLD to itself. `failing` makes RDAP answer 500.
 */
export class RdapPeer {
  failing = false;
  /** The User-Agent of every HTTP request, in order (null when none was sent). */
  readonly userAgents: (string | null)[] = [];
  readonly rdapDomains = new Map<string, Registration>();
  readonly whoisDomains = new Map<string, Registration>();
  private http = http.createServer((req, res) => this.handle(req, res));
  private whois = net.createServer((socket) => this.answerWhois(socket));

  get bootstrapUrl(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/dns.json`;
  }

  get whoisServer(): string {
    return `127.0.0.1:${(this.whois.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => this.whois.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
    await new Promise((resolve) => this.whois.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.userAgents.push(req.headers['user-agent'] ?? null);
    const base = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
    if (req.url === '/dns.json') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ version: '1.0', services: [[['test'], [`${base}/rdap/`]]] }));
    }
    if (this.failing) return void res.writeHead(500).end();
    const name = /^\/rdap\/domain\/(.+)$/.exec(req.url ?? '')?.[1];
    const reg = name ? this.rdapDomains.get(decodeURIComponent(name)) : undefined;
    if (!reg) return void res.writeHead(404, { 'content-type': 'application/rdap+json' }).end('{"errorCode":404}');
    res.writeHead(200, { 'content-type': 'application/rdap+json' }).end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: name,
        events: [
          { eventAction: 'registration', eventDate: '2001-01-01T00:00:00Z' },
          { eventAction: 'expiration', eventDate: reg.expiresAt },
        ],
        entities: [
          {
            objectClassName: 'entity',
            handle: '9999',
            roles: ['registrar'],
            vcardArray: [
              'vcard',
              [
                ['version', {}, 'text', '4.0'],
                ['fn', {}, 'text', reg.registrar],
              ],
            ],
          },
        ],
      }),
    );
  }

  private answerWhois(socket: net.Socket): void {
    let query = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      query += chunk;
      if (!query.includes('\n')) return;
      const name = query.trim().toLowerCase();
      if (name === 'whois') socket.end(`domain:       WHOIS\nrefer:        ${this.whoisServer}\n`);
      else {
        const reg = this.whoisDomains.get(name);
        socket.end(
          reg
            ? `Domain Name: ${name.toUpperCase()}\nRegistrar: ${reg.registrar}\nRegistry Expiry Date: ${reg.expiresAt}\n`
            : `No match for "${name.toUpperCase()}".\n`,
        );
      }
    });
  }
}
