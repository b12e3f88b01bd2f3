import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/** http_ece (web-push's own dependency) has no types: its decrypt as RFC 8188 / RFC 8291 use it. */
const ece = createRequire(__filename)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** A browser's side of one subscription: the keys the test made, the endpoint the push service gave. */
export interface Device {
  readonly id: string;
  readonly endpoint: string;
  /** The VAPID key the browser subscribed with (PushManager.subscribe's applicationServerKey). */
  readonly applicationServerKey: string;
  readonly ecdh: ECDH;
  readonly auth: Buffer;
  /** The PushSubscription's toJSON(), as the console posts it. */
  readonly subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

/** One push the service took, its payload decrypted with the device's keys. */
export interface Pushed {
  readonly deviceId: string;
  readonly at: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly claims: Record<string, unknown> | null;
  readonly payload: Record<string, any> | null;
  /** Where the request strays from RFC 8030, RFC 8292 and RFC 8291; empty when it is a push. */
  readonly problems: string[];
}

/**
 * A push service on loopback, as a browser vendor's (RFC 8030): a POST to a subscription's endpoint
 * is checked as the real ones do (VAPID per RFC 8292: `Authorization: vapid t=<JWT>, k=<key>`, the JWT
 * ES256-signed by k, aud the endpoint's origin, exp in the future and at most 24 hours ahead, sub a
 * mailto: or https: contact, k the key the device subscribed with; TTL; Content-Encoding aes128gcm),
 * and its body DECRYPTED (RFC 8291) with the device's private key and auth secret. Answers 201 with
 * a Location; an unknown endpoint 404; a device the test marked gone 410; a scripted status otherwise.
 */
export class PushService {
  private server: http.Server | undefined;
  private port = 0;
  private readonly devices = new Map<string, Device>();
  private readonly gone = new Set<string>();
  private readonly scripted = new Map<string, number[]>();
  private readonly waiters: (() => void)[] = [];
  readonly pushed: Pushed[] = [];

  /** `host`: the name endpoints carry (resolved to 127.0.0.1 by the test's DNS). */
  constructor(private readonly host: string) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** A new browser subscription made with `applicationServerKey`: fresh P-256 keys and a 16-byte auth secret. */
  device(applicationServerKey: string): Device {
    const id = randomUUID();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const endpoint = `${this.origin}/push/${id}`;
    const device: Device = {
      id,
      endpoint,
      applicationServerKey,
      ecdh,
      auth,
      subscription: { endpoint, expirationTime: null, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } },
    };
    this.devices.set(id, device);
    return device;
  }

  /** The device unsubscribed: its endpoint answers 410 Gone from now on. */
  unsubscribe(device: Device): void {
    this.gone.add(device.id);
  }

  /** The next answers to pushes for the device (429, 503...), in order. */
  script(device: Device, ...statuses: number[]): void {
    this.scripted.set(device.id, [...(this.scripted.get(device.id) ?? []), ...statuses]);
  }

  to(device: Device): Pushed[] {
    return this.pushed.filter((p) => p.deviceId === device.id);
  }

  /** Resolves at the next push taken. */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void this.take(req, Buffer.concat(chunks)).then(({ status, headers }) => {
        res.writeHead(status, headers);
        res.end();
      });
    });
  }

  private async take(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers?: Record<string, string> }> {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    const device = id ? this.devices.get(id) : undefined;
    if (!device || req.method !== 'POST') return { status: 404 };
    if (this.gone.has(device.id)) return { status: 410 };
    const problems: string[] = [];
    const claims = await this.checkVapid(req, device, problems);
    const ttl = String(req.headers.ttl ?? '');
    if (!/^\d+$/.test(ttl)) problems.push('TTL header missing or not a number of seconds (RFC 8030 5.2)');
    const urgency = req.headers.urgency;
    if (urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(String(urgency)))
      problems.push('Urgency not one of RFC 8030 5.3');
    if (req.headers['content-encoding'] !== 'aes128gcm') problems.push('Content-Encoding is not aes128gcm (RFC 8291 4)');
    let payload: Record<string, any> | null = null;
    try {
      const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: b64url(device.auth) });
      payload = JSON.parse(plain.toString('utf8')) as Record<string, any>;
    } catch (error) {
      problems.push(`payload does not decrypt with the subscription's keys: ${(error as Error).message}`);
    }
    if (body.length > 4096) problems.push('payload over 4096 bytes (RFC 8030 7.2)');
    const scripted = this.scripted.get(device.id)?.shift();
    if (problems.length > 0 && claims === null) return { status: 403 };
    this.pushed.push({ deviceId: device.id, at: Date.now(), headers: req.headers, claims, payload, problems });
    for (const wake of this.waiters.splice(0)) wake();
    if (scripted !== undefined) return { status: scripted, headers: scripted === 429 ? { 'retry-after': '0' } : undefined };
    if (problems.length > 0) return { status: 400 };
    return { status: 201, headers: { location: `${this.origin}/message/${randomUUID()}` } };
  }

  /** RFC 8292: the JWT's signature by k, its claims; null (and problems) when it does not verify. */
  private async checkVapid(req: http.IncomingMessage, device: Device, problems: string[]): Promise<Record<string, unknown> | null> {
    const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(req.headers.authorization ?? ''));
    if (!match) {
      problems.push('Authorization is not "vapid t=<JWT>, k=<key>" (RFC 8292 3)');
      return null;
    }
    const [, jwt, k] = match as unknown as [string, string, string];
    if (k !== device.applicationServerKey) problems.push('k is not the key the device subscribed with (RFC 8292 4.2)');
    if (decodeProtectedHeader(jwt).alg !== 'ES256') problems.push('JWT not ES256 (RFC 8292 2)');
    const point = Buffer.from(k, 'base64url');
    if (point.length !== 65 || point[0] !== 4) {
      problems.push('k is not an uncompressed P-256 point (RFC 8292 3.2)');
      return null;
    }
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, 'ES256');
    try {
      const { payload } = await jwtVerify(jwt, key, { audience: this.origin, algorithms: ['ES256'] });
      const now = Date.now() / 1000;
      if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp > now + 24 * 3600)
        problems.push('exp missing, past or more than 24 hours ahead (RFC 8292 2)');
      if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
        problems.push('sub is not a mailto: or https: contact (RFC 8292 2.1)');
      return payload as Record<string, unknown>;
    } catch (error) {
      problems.push(`JWT does not verify with k for aud ${this.origin}: ${(error as Error).message}`);
      return null;
    }
  }
}
