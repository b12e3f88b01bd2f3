import type { VatNumber } from '../../domain/identity/vat-id';
import type { VatRegistry } from '../../application/identity/ports';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { CheckDeadline } from '../../application/checks/check-deadline';
import { exchange } from '../protocols/http/http-exchange';
import type { SharedTlsContext } from '../protocols/shared/tls-context';

const TIMEOUT_MS = 15_000;
/** VIES's answers about the member states' services that mean "not now", not "no". */
const UNAVAILABLE = new Set([
  'MS_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
  'TIMEOUT',
  'MS_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'SERVER_BUSY',
]);

interface ViesAnswer {
  valid?: boolean;
  name?: string;
  address?: string;
  actionSucceed?: boolean;
  errorWrappers?: Array<{ error?: string; message?: string }>;
}

/** VIES's "---" placeholder for an undisclosed name or address. */
const disclosed = (value: string | undefined): string | null => {
  const text = value?.trim();
  return text && text !== '---' ? text : null;
};

/**
 * The European Commission's VIES REST API (POST {baseUrl}/check-vat-number), reached through the
 * target policy on a pinned connection like every outbound call. Its base URL is VIES_URL.
 */
export class ViesVatRegistry implements VatRegistry {
  constructor(
    private readonly baseUrl: string,
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly userAgent: string,
  ) {}

  async check(number: VatNumber): ReturnType<VatRegistry['check']> {
    const { deadline, clear } = CheckDeadline.within(TIMEOUT_MS);
    try {
      const response = await exchange(this.policy, this.tls, {
        url: new URL(`${this.baseUrl.replace(/\/+$/, '')}/check-vat-number`),
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode: number.countryCode, vatNumber: number.number }),
        userAgent: this.userAgent,
        keepBodyBytes: 64 * 1024,
        countLimit: 64 * 1024,
        deadline,
        certificateAt: null,
      });
      let answer: ViesAnswer;
      try {
        answer = JSON.parse(response.body?.toString('utf8') ?? '') as ViesAnswer;
      } catch {
        return { ok: false, reason: 'unavailable', detail: `VIES answered ${response.status} without JSON` };
      }
      const error = answer.errorWrappers?.[0]?.error;
      if (error !== undefined || answer.actionSucceed === false || response.status >= 400) {
        const code = error ?? `HTTP ${response.status}`;
        return UNAVAILABLE.has(code) || response.status >= 500
          ? { ok: false, reason: 'unavailable', detail: `VIES: ${code}` }
          : { ok: false, reason: 'invalidInput', detail: `VIES refused the number: ${code}` };
      }
      if (typeof answer.valid !== 'boolean') return { ok: false, reason: 'unavailable', detail: 'VIES answered without a verdict' };
      return { ok: true, valid: answer.valid, name: disclosed(answer.name), address: disclosed(answer.address) };
    } catch (error) {
      return { ok: false, reason: 'unavailable', detail: `VIES could not be reached: ${(error as Error).message}` };
    } finally {
      clear();
    }
  }
}
