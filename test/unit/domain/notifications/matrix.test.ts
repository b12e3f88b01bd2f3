import { expect } from 'chai';
import { normalizeChannelConfig, recipientsOf } from '../../../../src/domain/notifications/channel-config';
import type { NotificationMessage } from '../../../../src/domain/notifications/message-parts';
import { postRequestOf, secretFields } from '../../../../src/domain/notifications/notifiers';
import { MATRIX_TEXT_MAX_BYTES } from '../../../../src/domain/notifications/notifiers/matrix';
import { expectAppError } from '../../../support/expect-app-error';

const HOMESERVER = 'https://matrix.example.org/';
const ROOM = '!OGEhHVWSdvArJzumhm:example.org';
const TOKEN = 'syt_Ym90_0123456789abcdefghij_0aBcDe';
const config = { url: HOMESERVER, roomId: ROOM, accessToken: TOKEN, messagePrefix: null };

const aMessage = (overrides: Partial<NotificationMessage> = {}): NotificationMessage => ({
  id: '3f1c9a2e-0d1b-4c8a-9e77-5b6a1f0c2d3e',
  event: 'incident.opened',
  occurredAt: '2026-11-01T00:00:00.000Z',
  summary: 'Shop is down',
  incidentId: 'i1',
  monitorId: 1,
  customerId: 1,
  data: {},
  ...overrides,
});

describe('the Matrix notifier (src/domain/notifications/notifiers/matrix.ts)', () => {
  describe('its config', () => {
    it('keeps the homeserver, the room id and the access token (the secret)', () => {
      expect(normalizeChannelConfig('matrix', { url: 'https://matrix.example.org', roomId: ROOM, accessToken: TOKEN })).to.deep.equal(
        config,
      );
      expect(secretFields('matrix')).to.deep.equal(['accessToken']);
      expect(recipientsOf('matrix', config)).to.deep.equal([ROOM]);
    });

    it('refuses a room alias or a malformed id, and a token that cannot be a header, naming the field', () => {
      expectAppError(() => normalizeChannelConfig('matrix', { url: HOMESERVER, accessToken: TOKEN }), 'invalidRequestBody', {
        field: 'config.roomId',
        reason: 'required',
      });
      for (const roomId of ['#ops:example.org', 'OGEhHVWSdvArJzumhm:example.org', '!nocolon', '!a b:example.org', '!abc:'])
        expectAppError(() => normalizeChannelConfig('matrix', { ...config, roomId }), 'invalidRequestBody', {
          field: 'config.roomId',
          reason: 'notARoomId',
        });
      expectAppError(() => normalizeChannelConfig('matrix', { url: HOMESERVER, roomId: ROOM }), 'invalidRequestBody', {
        field: 'config.accessToken',
        reason: 'required',
      });
      expectAppError(() => normalizeChannelConfig('matrix', { ...config, accessToken: 'syt a\r\nX: 1' }), 'invalidRequestBody', {
        field: 'config.accessToken',
        reason: 'badToken',
      });
      expectAppError(() => normalizeChannelConfig('matrix', { ...config, url: 'http://192.168.1.2:8008/' }), 'invalidRequestBody', {
        field: 'config.url',
        reason: 'nonPublicAddress',
      });
    });
  });

  describe('what it sends (PUT of an m.room.message event)', () => {
    it('PUTs to the room’s send endpoint, the delivery’s id as the transaction id, the token as a bearer', () => {
      expect(postRequestOf('matrix', aMessage(), config)).to.deep.equal({
        method: 'PUT',
        url: 'https://matrix.example.org/_matrix/client/v3/rooms/!OGEhHVWSdvArJzumhm%3Aexample.org/send/m.room.message/3f1c9a2e-0d1b-4c8a-9e77-5b6a1f0c2d3e',
        body: {
          msgtype: 'm.text',
          body: 'Incident opened\nShop is down',
          format: 'org.matrix.custom.html',
          formatted_body: '<strong>Incident opened</strong><br>Shop is down',
        },
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
    });

    it('gives a retry of one delivery the same transaction id, and another delivery another', () => {
      const urlOf = (id: string) => postRequestOf('matrix', aMessage({ id }), config)!.url;
      expect(urlOf('d-1')).to.equal(urlOf('d-1'));
      expect(urlOf('d-1')).to.not.equal(urlOf('d-2'));
    });

    it('escapes the HTML of every text, the prefix and line breaks included; the plain body stays as written', () => {
      const message = aMessage({
        event: 'alert.manual',
        summary: 'a <b>bold</b> & "x"',
        data: { severity: 'critical', message: 'line 1\nline 2' },
      });
      const body = postRequestOf('matrix', message, { ...config, messagePrefix: '<prod>' })!.body as Record<string, string>;
      expect(body.body).to.equal('<prod> Critical alert\na <b>bold</b> & "x"\n\nline 1\nline 2');
      expect(body.formatted_body).to.equal(
        '<strong>&lt;prod&gt; Critical alert</strong><br>a &lt;b&gt;bold&lt;/b&gt; &amp; "x"<br><br>line 1<br>line 2',
      );
    });

    it('cuts a long body so the event stays under a homeserver’s 65536 bytes', () => {
      const body = postRequestOf('matrix', aMessage({ summary: '&'.repeat(70_000) }), config)!.body as Record<string, string>;
      expect(Buffer.byteLength(body.body!)).to.be.at.most(MATRIX_TEXT_MAX_BYTES + 100);
      expect(Buffer.byteLength(JSON.stringify(body))).to.be.below(65_536);
    });

    it('sends nothing without a homeserver or a room (the delivery is refused)', () => {
      expect(postRequestOf('matrix', aMessage(), { ...config, roomId: undefined })!.url).to.equal(undefined);
    });
  });
});
