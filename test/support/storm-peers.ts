import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mustCall } from './fault-rig';

const listen = async (server: http.Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** TEST SUPPORT ONLY: a loopback HTTP target that answers 200 until `goDown()`, then 503 (a mass outage behind one host). */
export async function aSwitchableTarget() {
  let up = true;
  const server = http.createServer((_req, res) => {
    res.writeHead(up ? 200 : 503, { 'content-type': 'text/plain' }).end(up ? 'ok' : 'down');
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    goDown(): void {
      up = false;
    },
    close: () => close(server),
  };
}

/** One POST a webhook receiver got: its X-Webhook-Id, its JSON body as sent, and which of the receiver's requests it was. */
export interface ReceivedHook {
  readonly id: string;
  readonly text: string;
  readonly body: any;
  readonly index: number;
}

/**
 * TEST SUPPORT ONLY: a loopback webhook receiver that records every POST (X-Webhook-Id and body)
 * and, while `holding`, answers none of them: the sender's deliveries stay in flight, recorded
 * nowhere as delivered, until the process sending them dies. Once released it answers 200 at once.
 */
export class HoldingWebhookReceiver {
  readonly received: ReceivedHook[] = [];
  holding = true;
  private port = 0;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* kept as text */
      }
      const id = req.headers['x-webhook-id'];
      this.received.push({ id: typeof id === 'string' ? id : '', text, body, index: this.received.length });
      if (!this.holding) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });

  get url(): string {
    return `http://127.0.0.1:${this.port}/storm`;
  }

  /** The POSTs received, by X-Webhook-Id (a redelivery of the same delivery lands under the same id). */
  byId(): Map<string, ReceivedHook[]> {
    const ids = new Map<string, ReceivedHook[]>();
    for (const hook of this.received) ids.set(hook.id, [...(ids.get(hook.id) ?? []), hook]);
    return ids;
  }

  async start(): Promise<this> {
    this.port = await listen(this.server);
    return this;
  }

  stop(): Promise<void> {
    return close(this.server);
  }
}

/** A customer of the storm and its monitors (internal and public ids). */
export interface StormCustomer {
  readonly id: number;
  readonly monitors: ReadonlyArray<{ id: number; publicId: string }>;
}

/**
 * `customers` customers of one package that allows one-minute checks, each with `perCustomer`
 * one-minute websites (monitor i of customer c on `targetOf(c, i)`), opening an incident after two
 * failed checks (the standard terms) and confirming a failure 10 s later; created through the API at `url`.
 */
export async function stormCustomers(
  url: string,
  token: string,
  targetOf: (customer: number, monitor: number) => string,
  customers: number,
  perCustomer: number,
): Promise<StormCustomer[]> {
  const pack = await mustCall(url, 'POST', '/api/package-configs', 201, {
    token,
    body: {
      key: 'storm',
      displayName: 'Storm',
      minCheckIntervalMinutes: 1,
      quotaTiers: [{ monitorLimit: perCustomer, priceMonthly: 0 }],
    },
  });
  const made: StormCustomer[] = [];
  for (let c = 0; c < customers; c++) {
    const customer = await mustCall(url, 'POST', '/api/customers', 200, {
      token,
      body: {
        name: `Storm customer ${c}`,
        email: `storm-customer-${c}@test.example`,
        packageId: pack.id,
        alertConsecutiveChecks: 2,
        alertRetryInterval: 10,
      },
    });
    const monitors: Array<{ id: number; publicId: string }> = [];
    for (let i = 0; i < perCustomer; i++) {
      const site = await mustCall(url, 'POST', '/api/websites', 201, {
        token,
        body: { customerId: customer.customer.id, url: `${targetOf(c, i)}?c=${c}&m=${i}`, checkInterval: 1, timeoutSeconds: 10 },
      });
      monitors.push({ id: site.id as number, publicId: site.publicId as string });
    }
    made.push({ id: customer.customer.id as number, monitors });
  }
  return made;
}
