import { Writable } from 'node:stream';

/** How many error lines the shared test server keeps (a ring: the oldest go first). */
const KEPT = 200;
const lines: { reqId?: string; line: string }[] = [];

/**
 * TEST SUPPORT ONLY: where the shared test server writes its error-level log lines when
 * TEST_LOG_LEVEL is not set. A 5xx answered to a test is then printed with its cause (see
 * `http-client.ts`), so an intermittent 500 in CI says why instead of only that it happened.
 */
export const serverErrorLog = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      let reqId: string | undefined;
      try {
        reqId = (JSON.parse(line) as { reqId?: string }).reqId;
      } catch {
        /* not JSON: kept without an id */
      }
      lines.push({ reqId, line });
      if (lines.length > KEPT) lines.shift();
    }
    done();
  },
});

/** The error lines the shared test server logged for one request. */
export function serverErrorsOf(reqId: string | null): string[] {
  return reqId ? lines.filter((entry) => entry.reqId === reqId).map((entry) => entry.line) : [];
}
