import type http from 'node:http';
import { jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/** The fields of ntfy's JSON publish (https://docs.ntfy.sh/publish/#publish-as-json); any other is a wire error. */
const JSON_FIELDS = new Set([
  'topic',
  'message',
  'title',
  'tags',
  'priority',
  'actions',
  'click',
  'attach',
  'markdown',
  'icon',
  'filename',
  'delay',
  'email',
  'call',
]);
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const MESSAGE_MAX_BYTES = 4096;

/** What is wrong with a request as ntfy's JSON publish: POST to the root, application/json, the documented fields and types. */
function problemsOf(req: http.IncomingMessage, raw: string): { body: Record<string, any> | null; problems: string[] } {
  const problems: string[] = [];
  if (req.method !== 'POST' && req.method !== 'PUT') problems.push(`method ${req.method}`);
  if (req.url !== '/') problems.push(`path ${req.url} (JSON is published to the root)`);
  if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
  const body = jsonObjectOf(raw, problems);
  if (!body) return { body, problems };
  for (const key of Object.keys(body)) if (!JSON_FIELDS.has(key)) problems.push(`unknown field ${key}`);
  if (typeof body.topic !== 'string' || !TOPIC.test(body.topic)) problems.push(`topic ${JSON.stringify(body.topic)}`);
  if (body.message !== undefined && typeof body.message !== 'string') problems.push('message is not a string');
  if (typeof body.message === 'string' && Buffer.byteLength(body.message) > MESSAGE_MAX_BYTES) problems.push('message over 4096 bytes');
  if (body.title !== undefined && typeof body.title !== 'string') problems.push('title is not a string');
  if (body.priority !== undefined && !(Number.isInteger(body.priority) && (body.priority as number) >= 1 && (body.priority as number) <= 5))
    problems.push(`priority ${JSON.stringify(body.priority)}`);
  if (body.tags !== undefined && !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'string')))
    problems.push('tags is not a list of strings');
  if (body.click !== undefined && typeof body.click !== 'string') problems.push('click is not a string');
  return { body, problems };
}

/** A publish as the receiver took it (the shared receiver's record). */
export type NtfyPublish = Received;

const ntfyError = (status: number, error: string) => ({ code: status * 100 + (status === 401 ? 1 : 0), http: status, error });
const topicOf = (r: Pick<Received, 'body'>) => (typeof r.body?.topic === 'string' ? r.body.topic : '');

/**
 * A loopback ntfy server for JSON publishes (on the shared ScriptedReceiver): it records each request
 * with what strays from the documented wire format (answering such a request 400, as ntfy would),
 * asks a topic's access token as `Authorization: Bearer` when the test protects it (401 otherwise,
 * ntfy's error body), and answers from a script per topic, then 200 with ntfy's message JSON. Its URL
 * names `host`, a public-looking name the test DNS points at 127.0.0.1 (CHECK_PRIVATE_ALLOWLIST admits
 * loopback).
 */
export class NtfyReceiver extends ScriptedReceiver {
  constructor(host: string) {
    let published = 0;
    super(host, {
      check: problemsOf,
      keyOf: topicOf,
      credentialOf: (r) => /^Bearer (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1],
      invalid: (problems) => ({ status: 400, body: ntfyError(400, problems.join('; ')) }),
      unauthorized: () => ({ status: 401, body: ntfyError(401, 'unauthorized') }),
      error: (status) => ntfyError(status, 'scripted'),
      ok: (r) => ({
        status: 200,
        body: { id: `m${++published}`, time: Math.floor(Date.now() / 1000), event: 'message', topic: topicOf(r), message: r.body?.message },
      }),
    });
  }
}
