import { jsonObjectOf, ScriptedReceiver, type Received, type ReceiverRules } from './scripted-receiver';

const SEND = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/;
const EVENT_MAX_BYTES = 65_536;

/** The room a request is for: the path's room id. */
const roomOf = (request: Pick<Received, 'path'>) => {
  const match = SEND.exec(request.path);
  return match ? decodeURIComponent(match[1]!) : '';
};

const rules: ReceiverRules = {
  check(req, raw) {
    const match = SEND.exec(req.url ?? '');
    const key = roomOf({ path: req.url ?? '' });
    const problems: string[] = [];
    if (req.method !== 'PUT') problems.push(`method ${req.method} (send is a PUT)`);
    if (!match) return { body: null, problems: [...problems, `path ${req.url}`] };
    if (!/^![^:]+:.+$/.test(key)) problems.push(`room id ${key}`);
    if (decodeURIComponent(match[2]!) !== 'm.room.message') problems.push(`event type ${match[2]}`);
    if (!/^Bearer \S+$/.test(String(req.headers.authorization ?? ''))) problems.push('no bearer access token');
    if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
    if (Number(req.headers['content-length'] ?? 0) > EVENT_MAX_BYTES) problems.push('event over 65536 bytes');
    const body = jsonObjectOf(raw, problems);
    if (!body) return { body, problems };
    if (typeof body.msgtype !== 'string') problems.push('msgtype missing');
    if (typeof body.body !== 'string') problems.push('body is not a string');
    if (body.format !== undefined && body.format !== 'org.matrix.custom.html') problems.push(`format ${JSON.stringify(body.format)}`);
    if ((body.format === undefined) !== (body.formatted_body === undefined)) problems.push('format and formatted_body go together');
    if (body.formatted_body !== undefined && typeof body.formatted_body !== 'string') problems.push('formatted_body is not a string');
    return { body, problems };
  },
  keyOf: roomOf,
  credentialOf: (request) => /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ''))?.[1],
  invalid: (problems) => ({ status: 400, body: { errcode: 'M_BAD_JSON', error: problems.join('; ') } }),
  unauthorized: () => ({ status: 401, body: { errcode: 'M_UNKNOWN_TOKEN', error: 'Unrecognised access token', soft_logout: false } }),
  error: (status) => ({ errcode: status === 429 ? 'M_LIMIT_EXCEEDED' : 'M_UNKNOWN', error: `scripted ${status}` }),
  // The event id is the transaction's: a retry with the same txnId is the same event, as a homeserver answers.
  ok: (request) => ({ status: 200, body: { event_id: `$${SEND.exec(request.path)![3]}` } }),
};

/**
 * A loopback homeserver's send endpoint: PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}
 * with a bearer access token (`protect` a room with one: M_UNKNOWN_TOKEN 401 otherwise), JSON with
 * msgtype and body, format org.matrix.custom.html with formatted_body, at most 65536 bytes (M_BAD_JSON
 * 400 otherwise). Answers `{event_id}` the same for a transaction sent again. Keyed by room id.
 */
export class MatrixReceiver extends ScriptedReceiver {
  constructor(host: string) {
    super(host, rules);
  }

  /** The transaction ids a room was sent, in order. */
  transactionsOf(roomId: string): string[] {
    return this.at(roomId).map((r) => decodeURIComponent(SEND.exec(r.path)?.[3] ?? ''));
  }
}
