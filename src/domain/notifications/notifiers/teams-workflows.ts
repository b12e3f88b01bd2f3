import type { ChatParts } from '../message-parts';
import { CHAT_FIELDS, chatConfig } from './config-rules';
import type { NotifierDescriptor } from './notifier';
import { truncateUtf8 } from './ntfy';

/**
 * Teams takes a message of about 28 KB at most: the card's texts are cut well under it (UTF-8 bytes,
 * whole characters), leaving room for the envelope and JSON escaping.
 */
export const TEAMS_WORKFLOWS_TEXT_MAX_BYTES = 16 * 1024;

/** The Adaptive Card colours of a text block, from the message's colour (red, green, amber, blue). */
const CARD_COLORS: Readonly<Record<number, string>> = { 0xd93025: 'attention', 0x188038: 'good', 0xf9ab00: 'warning', 0x1a73e8: 'accent' };

/** The Adaptive Card 1.4 of a message: the title in bold, coloured by the event, the body, then the event and its time as facts. */
export function adaptiveCard({ title, prefix, body, color, event, occurredAt }: ChatParts): Record<string, unknown> {
  return {
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      {
        type: 'TextBlock',
        text: truncateUtf8(prefix ? `${prefix} ${title}` : title, 1024),
        weight: 'bolder',
        size: 'medium',
        color: CARD_COLORS[color] ?? 'default',
        wrap: true,
      },
      { type: 'TextBlock', text: truncateUtf8(body, TEAMS_WORKFLOWS_TEXT_MAX_BYTES), wrap: true },
      {
        type: 'FactSet',
        facts: [
          { title: 'Event', value: event },
          { title: 'At', value: occurredAt },
        ],
      },
    ],
    msteams: { width: 'Full' },
  };
}

/**
 * Microsoft Teams through a Workflows (Power Automate) webhook, the successor of the retired Office
 * 365 connectors (the `teams` type's MessageCard): a `message` whose one attachment is an Adaptive
 * Card 1.4, POSTed as JSON to the workflow's URL. The URL carries its signature in its query, so it
 * is a secret, as every chat service's incoming-webhook URL.
 */
export const teamsWorkflows = {
  type: 'teams-workflows',
  label: 'Microsoft Teams (Workflows)',
  about: 'the URL of a Workflows webhook (Post to a channel when a webhook request is received): an Adaptive Card',
  fields: CHAT_FIELDS,
  normalize: chatConfig,
  transport: 'post',
  chat: (parts) => ({
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: adaptiveCard(parts) }],
  }),
  sample: {
    url: 'https://example.westeurope.logic.azure.com/workflows/0123abcd/triggers/manual/paths/invoke?api-version=2016-06-01&sig=x',
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'teams-workflows'>;
