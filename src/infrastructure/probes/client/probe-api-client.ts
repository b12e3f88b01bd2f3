import type { Clock } from '../../../application/shared/clock';
import { PROBE_PROTOCOL_VERSION } from '../../../application/probes/wire';

/** An answer of the probe API other than 2xx: its status and the envelope's stable code. */
export class ProbeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeApiError';
  }

  /** The server refused the probe itself (bad or revoked key, moved instance): retrying will not help. */
  get refused(): boolean {
    return this.status === 401 || this.status === 403 || this.code === 'probeInstanceMoved';
  }
}

export interface ProbeApiClientOptions {
  /** PROBE_SERVER_URL: the service's base URL (https://monitoring.example.com). */
  readonly serverUrl: string;
  /** PROBE_KEY: the location's probe key. */
  readonly key: string;
  readonly instanceId: string;
  /** How long one call may take. */
  readonly timeoutMs?: number;
}

/**
 * The probe's side of the probe API: JSON over HTTPS (keep-alive connections), the key and the
 * instance id on every call. A 429 is waited out (Retry-After) and tried again; other failures throw.
 */
export class ProbeApiClient {
  private readonly base: string;

  constructor(private readonly options: ProbeApiClientOptions) {
    this.base = `${options.serverUrl.replace(/\/+$/, '')}/api/probe`;
  }

  /** `stopping` ends the call at once (a held wait call when the probe stops). */
  async call<T>(path: string, body: unknown, stopping?: AbortSignal): Promise<T> {
    return this.send<T>(path, JSON.stringify(body), stopping);
  }

  /** Sends a body already serialized (a batch of buffered results is sent as written). */
  async send<T>(path: string, json: string, stopping?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.key}`,
          'x-probe-instance': this.options.instanceId,
          'x-probe-protocol': String(PROBE_PROTOCOL_VERSION),
          'content-type': 'application/json',
        },
        body: json,
        signal: stopping
          ? AbortSignal.any([stopping, AbortSignal.timeout(this.options.timeoutMs ?? 30_000)])
          : AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      if (response.status === 429 && attempt < 5) {
        await response.arrayBuffer();
        const wait = Number(response.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, Math.min(30, Math.max(1, wait)) * 1000));
        continue;
      }
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      if (!response.ok) {
        let code: string | null = null;
        let message = text.slice(0, 200);
        try {
          const envelope = JSON.parse(text) as { message?: string; data?: { code?: string } };
          code = envelope.data?.code ?? null;
          message = envelope.message ?? message;
        } catch {
          // Not the envelope (a proxy's page): keep the text.
        }
        throw new ProbeApiError(response.status, code, `probe API ${path}: ${response.status} ${message}`);
      }
      return JSON.parse(text) as T;
    }
  }
}

/**
 * The server's clock as the probe sees it: its own, corrected by the offset measured at the last
 * answer that carried the server's time (half the round trip assumed each way). Slots are due on
 * the server's grid, so a probe whose clock is off still checks on time.
 */
export class ServerClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** `serverTime` was read by the server between `sentAt` and `receivedAt` (local clock). */
  observe(serverTime: number, sentAt: number, receivedAt: number): void {
    this.offsetMs = Math.round(serverTime - (sentAt + receivedAt) / 2);
  }
}
