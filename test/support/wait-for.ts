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

/**
 * Runs `steps` one after another; one still running after `warnAfterMs` is named on stderr, so a
 * hook that times out says which step held it (a teardown that hung once under CI's load and never
 * alone). Nothing is cut short: the hook's own timeout still fails the run.
 */
export async function namedSteps(steps: Record<string, () => Promise<unknown>>, warnAfterMs = 15_000): Promise<void> {
  for (const [name, step] of Object.entries(steps)) {
    const started = Date.now();
    const slow = setInterval(() => process.stderr.write(`still waiting for ${name} after ${Date.now() - started} ms\n`), warnAfterMs);
    try {
      await step();
    } finally {
      clearInterval(slow);
    }
  }
}
