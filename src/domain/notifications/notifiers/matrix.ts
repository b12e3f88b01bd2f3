import { invalid, MESSAGE_PREFIX_FIELD, postedUrl, URL_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';
import { truncateUtf8 } from './ntfy';
import { escapeHtml } from './telegram';

/** A room's id: `!`, an opaque local part, `:`, the server that created it (an alias, `#...`, cannot be sent to). */
const ROOM_ID = /^![^\s:/]{1,200}:[A-Za-z0-9.:[\]-]{1,255}$/;
/** An access token is sent as a header: visible ASCII only. */
const ACCESS_TOKEN = /^[\x21-\x7e]{1,500}$/;
/**
 * A homeserver takes events of at most 65536 bytes: the body is cut to 8 KB of UTF-8 (whole
 * characters), so the plain text and the HTML (escaping makes it at most five times as long) fit.
 */
export const MATRIX_TEXT_MAX_BYTES = 8 * 1024;

function roomIdOf(config: ChannelConfig): string {
  if (config.roomId === undefined || config.roomId === '') throw invalid('config.roomId', 'required');
  if (!ROOM_ID.test(config.roomId)) throw invalid('config.roomId', 'notARoomId');
  return config.roomId;
}

function accessTokenOf(config: ChannelConfig): string {
  if (config.accessToken === undefined || config.accessToken === '') throw invalid('config.accessToken', 'required');
  if (!ACCESS_TOKEN.test(config.accessToken)) throw invalid('config.accessToken', 'badToken');
  return config.accessToken;
}

/** The send endpoint of a room on a homeserver, the transaction id the delivery's own (so a retry is the same event). */
export const matrixSendUrl = (homeserver: string, roomId: string, txnId: string): string =>
  `${homeserver.replace(/\/+$/, '')}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`;

/**
 * Matrix, through the client-server API: PUT `<homeserver>/_matrix/client/v3/rooms/{roomId}/send/
 * m.room.message/{txnId}` with the access token as `Authorization: Bearer`, an `m.text` message with
 * its plain `body` and its HTML `formatted_body` (`org.matrix.custom.html`, every text escaped). The
 * transaction id is the delivery's id: a retry of a delivery the homeserver took is the same event,
 * not a second message. Channels are compared by room.
 */
export const matrix = {
  type: 'matrix',
  label: 'Matrix',
  about: 'client-server API: the homeserver URL, a room id (!...:server) the account has joined, its access token',
  fields: [
    { ...URL_FIELD, mark: 'target', label: 'Homeserver URL', recipient: undefined },
    {
      name: 'roomId',
      mark: 'target',
      label: 'Room ID',
      recipient: true,
      help: 'The room posted to, by its id (!abc123:example.org, in its advanced settings), which the account has joined',
      input: { kind: 'string', max: 460 },
    },
    {
      name: 'accessToken',
      mark: 'secret',
      label: 'Access token',
      help: 'The access token of the account that posts (a bot user’s), sent as Authorization: Bearer',
      input: { kind: 'string', max: 500 },
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    url: postedUrl(config, allowsPrivate),
    roomId: roomIdOf(config),
    accessToken: accessTokenOf(config),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ message, parts, config }) => {
    const title = truncateUtf8(parts.prefix ? `${parts.prefix} ${parts.title}` : parts.title, 1024);
    const body = truncateUtf8(parts.body, MATRIX_TEXT_MAX_BYTES);
    return {
      method: 'PUT',
      url: config.url && config.roomId ? matrixSendUrl(config.url, config.roomId, message.id) : undefined,
      body: {
        msgtype: 'm.text',
        body: `${title}\n${body}`,
        format: 'org.matrix.custom.html',
        formatted_body: `<strong>${escapeHtml(title)}</strong><br>${escapeHtml(body).replace(/\n/g, '<br>')}`,
      },
      headers: { Authorization: `Bearer ${config.accessToken ?? ''}` },
    };
  },
  sample: {
    url: 'https://matrix.example.org/',
    roomId: '!OGEhHVWSdvArJzumhm:example.org',
    accessToken: 'syt_Ym90_0123456789abcdefghij_0aBcDe',
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'matrix'>;
