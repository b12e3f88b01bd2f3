import { jsonObjectOf, ScriptedReceiver, type Received, type ReceiverRules } from './scripted-receiver';

/** The path of a Workflows webhook ("When a Teams webhook request is received"), its signature in the query. */
const PATH = /^\/workflows\/([0-9a-f]+)\/triggers\/manual\/paths\/invoke$/;
/** Teams refuses a message over about 28 KB. */
const MESSAGE_MAX_BYTES = 28 * 1024;
const ELEMENTS = new Set(['TextBlock', 'FactSet', 'ColumnSet', 'Container', 'Image', 'RichTextBlock']);

/** Where an Adaptive Card strays from what Teams renders: its type, a version it knows (1.0 to 1.5), elements it knows, well formed. */
function cardProblems(card: unknown): string[] {
  if (typeof card !== 'object' || card === null) return ['attachment content is not an object'];
  const { type, version, body } = card as Record<string, unknown>;
  const problems: string[] = [];
  if (type !== 'AdaptiveCard') problems.push(`content.type ${JSON.stringify(type)}`);
  if (typeof version !== 'string' || !/^1\.[0-5]$/.test(version)) problems.push(`content.version ${JSON.stringify(version)}`);
  if (!Array.isArray(body)) return [...problems, 'content.body is not a list'];
  for (const element of body as Array<Record<string, unknown>>) {
    if (!ELEMENTS.has(String(element?.type))) problems.push(`element type ${JSON.stringify(element?.type)}`);
    if (element?.type === 'TextBlock' && typeof element.text !== 'string') problems.push('TextBlock without text');
    if (
      element?.type === 'FactSet' &&
      !(Array.isArray(element.facts) && element.facts.every((f: any) => typeof f?.title === 'string' && typeof f?.value === 'string'))
    )
      problems.push('FactSet facts are not {title, value} strings');
  }
  return problems;
}

/** The workflow a request is for: the id in its path. */
const workflowOf = (request: Pick<Received, 'pathname'>) => PATH.exec(request.pathname)?.[1] ?? '';

const rules: ReceiverRules = {
  check(req, raw, url) {
    const key = workflowOf(url);
    const problems: string[] = [];
    if (req.method !== 'POST') problems.push(`method ${req.method}`);
    if (!key) problems.push(`path ${url.pathname}`);
    if (!url.searchParams.get('api-version') || !url.searchParams.get('sig')) problems.push('query without api-version or sig');
    if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
    if (Number(req.headers['content-length'] ?? 0) > MESSAGE_MAX_BYTES) problems.push('message over 28 KB');
    const body = jsonObjectOf(raw, problems);
    if (!body) return { body, problems };
    if (body.type !== 'message') problems.push(`type ${JSON.stringify(body.type)} (a message is expected)`);
    const attachments = body.attachments;
    if (!Array.isArray(attachments) || attachments.length === 0) return { body, problems: [...problems, 'attachments is null or empty'] };
    for (const a of attachments as Array<Record<string, unknown>>) {
      if (a?.contentType !== 'application/vnd.microsoft.card.adaptive') problems.push(`contentType ${JSON.stringify(a?.contentType)}`);
      problems.push(...cardProblems(a?.content));
    }
    return { body, problems };
  },
  keyOf: workflowOf,
  credentialOf: (request) => request.query.get('sig') ?? undefined,
  invalid: (problems) => ({ status: 400, body: { error: { code: 'InvalidRequestContent', message: problems.join('; ') } } }),
  unauthorized: () => ({
    status: 401,
    body: { error: { code: 'DirectApiInvalidAuthorizationSignature', message: 'The provided sig is not valid.' } },
  }),
  error: (status) => ({ error: { code: status === 429 ? 'WorkflowTriggerIsThrottled' : 'InternalServerError', message: 'scripted' } }),
  // Accepted: 202 with an empty body, as the trigger answers.
  ok: () => ({ status: 202, body: '' }),
};

/**
 * A loopback Workflows webhook: POST of JSON to /workflows/<id>/triggers/manual/paths/invoke with
 * api-version and sig in the query, a `message` whose attachments are Adaptive Cards Teams renders
 * (checked: type, version, elements, 28 KB); a wrong sig answers 401; a success 202 with no body.
 * Keyed by the workflow's id.
 */
export class TeamsWorkflowsReceiver extends ScriptedReceiver {
  constructor(host: string) {
    super(host, rules);
  }

  /** A workflow's webhook URL, signed with `sig`. */
  workflowUrl(id: string, sig: string): string {
    return `${this.url(`/workflows/${id}/triggers/manual/paths/invoke`)}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`;
  }
}
