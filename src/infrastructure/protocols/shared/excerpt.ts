/** How much of a peer's text (a reply, a message, a value) a check's evidence keeps. */
const EXCERPT_CHARS = 200;

/** The text's start, control characters escaped, for the evidence's banner. */
export function excerpt(text: string): string {
  const head = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return head.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}
