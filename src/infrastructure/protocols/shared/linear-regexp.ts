import v8 from 'node:v8';

let enabled = false;

/**
 * Makes V8's linear-time regular expression engine available (the `l` flag), which API chains
 * compile customers' patterns with (domain/checks/api-chain/chain-pattern.ts): a pattern matches in
 * time linear in its input whatever it is, so no crafted response body can hold a check process
 * that serves every tenant. The flag only makes the `l` flag known; every other regular expression
 * keeps V8's usual engine. Idempotent; the composition root and the checker set call it.
 */
export function enableLinearRegExp(): void {
  if (enabled) return;
  v8.setFlagsFromString('--enable-experimental-regexp-engine');
  enabled = true;
}
