/**
 * Polls `probe` until it answers something truthy (answered), every `everyMs`, and fails once
 * `timeoutMs` has passed. For integration tests that wait on real I/O (a notice, a peer closing, a
 * worker finishing): they wait for the condition, never a fixed time. Unit tests use sinon's fake
 * timers instead.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 5_000, everyMs = 20, what = 'the condition' }: { timeoutMs?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms for ${what} in vain`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
