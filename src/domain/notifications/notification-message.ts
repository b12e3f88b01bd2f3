import { chatNotifierOf, type ChatType } from './notifiers';
import { bodyOf, chatParts, titleOf, type NotificationMessage } from './message-parts';
import { fitSms } from './sms-text';

export { digestLines, type NotificationMessage } from './message-parts';
export { webhookPayload } from './notifiers/webhook';

/**
 * The body each chat service's incoming webhook accepts, built by its descriptor's `chat`
 * (src/domain/notifications/notifiers/): Slack {text, blocks}, Discord {content, embeds}, Teams a MessageCard.
 */
export function chatPayload(type: ChatType, message: NotificationMessage, prefix: string | null): Record<string, unknown> {
  return chatNotifierOf(type).chat(chatParts(message, prefix));
}

/** An e-mail's subject and plain-text body. */
export function emailContent(message: NotificationMessage): { subject: string; text: string } {
  const title = titleOf(message);
  return {
    subject: `${title}: ${message.summary}`,
    text: `${title}\n\n${bodyOf(message)}\n\nEvent: ${message.event}\nAt: ${message.occurredAt}${message.incidentId ? `\nIncident: ${message.incidentId}` : ''}\n`,
  };
}

/** An SMS's text: the event's title and summary, made to fit one GSM-7 segment (see fitSms). */
export function smsContent(message: NotificationMessage): string {
  return fitSms(`${titleOf(message)}: ${message.summary}`);
}

/** What a phone call says, read out twice at most: short, so a call is a page, not a report. */
export const VOICE_TEXT_MAX = 300;

/** The text read out on a call: the event's title and summary, cut to VOICE_TEXT_MAX characters. */
export function voiceContent(message: NotificationMessage): string {
  const text = `${titleOf(message)}: ${message.summary}`.replace(/\s+/g, ' ').trim();
  return text.length <= VOICE_TEXT_MAX ? text : `${text.slice(0, VOICE_TEXT_MAX - 3).replace(/[\uD800-\uDBFF]$/, '')}...`;
}

/** Text as XML character data: &, < and > (and quotes, harmlessly) escaped. */
const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** The TwiML of a call: the text said twice, with a pause between, then the call ends. */
export const voiceTwiml = (text: string): string =>
  `<Response><Say>${escapeXml(text)}</Say><Pause length="1"/><Say>${escapeXml(text)}</Say></Response>`;
