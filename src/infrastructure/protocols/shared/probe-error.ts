import type { CheckReasonCode, Finding } from '../../../domain/checks/check-result';
import { down } from '../../../domain/checks/check-result';
import type { Deadline } from '../../../application/checks/ports';

/** A failure a probe understood, carried to the checker as the finding it becomes. */
export class ProbeError extends Error {
  constructor(
    readonly code: CheckReasonCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeError';
  }
}

/** The error of a check whose deadline passed before it had its answer. */
export const checkTimedOut = (): ProbeError => new ProbeError('timeout', 'The check timed out');

const BY_ERRNO: Record<string, CheckReasonCode> = {
  ECONNREFUSED: 'connectionRefused',
  ETIMEDOUT: 'connectionTimeout',
  ECONNRESET: 'connectionFailed',
  EPIPE: 'connectionFailed',
  EHOSTUNREACH: 'connectionFailed',
  ENETUNREACH: 'connectionFailed',
  ENOTFOUND: 'dnsUnresolvable',
  EAI_AGAIN: 'dnsUnresolvable',
  UND_ERR_CONNECT_TIMEOUT: 'connectionTimeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_SOCKET: 'connectionFailed',
  UND_ERR_ABORTED: 'timeout',
  ABORT_ERR: 'timeout',
};

/** Any error a probe met, as a down finding: ours keep their code, socket errors map by errno. */
export function findingFor(error: unknown): Finding {
  if (error instanceof ProbeError) return down(error.code, error.message);
  const err = error as { code?: string; message?: string; name?: string };
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError') return down('timeout', 'The check timed out');
  const code = err?.code ? BY_ERRNO[err.code] : undefined;
  if (code) return down(code, describe(err));
  if (err?.code?.startsWith('ERR_SSL') || err?.code?.startsWith('ERR_TLS') || /SSL|TLS/.test(err?.message ?? '')) {
    return down('tlsHandshakeFailed', describe(err));
  }
  return down('protocolError', describe(err));
}

const describe = (err: { code?: string; message?: string }): string =>
  err.code && err.message && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : (err.message ?? String(err));

/** Rejects with a timeout ProbeError once the deadline passes; never resolves otherwise. */
export const deadlinePassed = (deadline: Deadline): Promise<never> =>
  new Promise((_, reject) => {
    const fail = () => reject(checkTimedOut());
    if (deadline.passed) fail();
    else deadline.onPassed(fail);
  });
