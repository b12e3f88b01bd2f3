import { ErrorText } from './field';

/** What a screen shows before its first read answers: the refusal if it failed, else "Loading …". */
export function Loading({ error, what }: { error: string | null; what: string }) {
  return error ? <ErrorText message={error} /> : <p role="status">Loading {what}…</p>;
}
