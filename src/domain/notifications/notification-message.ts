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
