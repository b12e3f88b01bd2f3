/**
 * A chain's regular expression, compiled for V8's linear-time engine (the `l` flag): matching costs
 * time linear in the text whatever the pattern, so a customer's pattern cannot backtrack for minutes
 * on a crafted body in a process every tenant's checks share. That engine refuses what it cannot run
 * in linear time (backreferences, lookarounds) with a SyntaxError, which validation reports. The host
 * enables the engine at start (infrastructure/protocols/shared/linear-regexp.ts).
 */
export function chainPattern(pattern: string): RegExp {
  return new RegExp(pattern, LINEAR);
}

/** The linear engine's flag, which ESLint's no-invalid-regexp does not know. */
const LINEAR = 'l';
