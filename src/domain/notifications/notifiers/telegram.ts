import { assertChannelUrl, type AddressAllowance } from '../channel-url';
import { invalid, MESSAGE_PREFIX_FIELD } from './config-rules';
import type { ChannelConfig, NotifierDescriptor } from './notifier';

/** The public Bot API server, posted to when a channel names no server of its own. */
export const TELEGRAM_API_URL = 'https://api.telegram.org/';
/** A bot's token as BotFather issues it (https://core.telegram.org/bots/api#authorizing-your-bot): its id, a colon, a secret. */
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,60}$/;
/** A chat's id (negative for groups and channels), or a public channel's @username (5 to 32 letters, digits and _). */
const NUMERIC_CHAT_ID = /^-?\d{1,16}$/;
const CHANNEL_USERNAME = /^@[A-Za-z][A-Za-z0-9_]{4,31}$/;
/** A forum topic's message_thread_id. */
const THREAD_ID = /^\d{1,16}$/;
/** sendMessage's text: 1 to 4096 characters after entity parsing (the visible text, not its HTML markup). */
export const TELEGRAM_TEXT_MAX = 4096;

/** The text as Telegram's HTML parse mode reads it back: only <, > and & are special (https://core.telegram.org/bots/api#html-style). */
export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The text cut to at most `max` UTF-16 code units (Telegram measures entities in them; a character
 * outside the BMP counts two, never fewer than Telegram counts), a pair never split, an ellipsis
 * saying it was cut.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}…`;
}

function botTokenOf(config: ChannelConfig): string {
  if (config.botToken === undefined || config.botToken === '') throw invalid('config.botToken', 'required');
  if (!BOT_TOKEN.test(config.botToken)) throw invalid('config.botToken', 'notABotToken');
  return config.botToken;
}

function chatIdOf(config: ChannelConfig): string {
  const chatId = config.chatId;
  if (chatId === undefined || chatId === '') throw invalid('config.chatId', 'required');
  const numeric = NUMERIC_CHAT_ID.test(chatId) && Number.isSafeInteger(Number(chatId)) && Number(chatId) !== 0;
  if (!numeric && !CHANNEL_USERNAME.test(chatId)) throw invalid('config.chatId', 'notAChatId');
  // Usernames are case-insensitive: stored lowercased, so two channels to one channel compare equal.
  return numeric ? String(Number(chatId)) : chatId.toLowerCase();
}

function threadIdOf(config: ChannelConfig): string | null {
  const threadId = config.threadId;
  if (threadId === undefined || threadId === null || threadId === '') return null;
  if (!THREAD_ID.test(threadId) || !Number.isSafeInteger(Number(threadId)) || Number(threadId) === 0)
    throw invalid('config.threadId', 'notAThreadId');
  return String(Number(threadId));
}

/** A Bot API server of one's own, judged by the channel URL rule; none (null) is the public one. */
function apiUrlOf(config: ChannelConfig, allowsPrivate?: AddressAllowance): string | null {
  if (config.apiUrl === undefined || config.apiUrl === null || config.apiUrl === '') return null;
  return assertChannelUrl('config.apiUrl', config.apiUrl, allowsPrivate);
}

/** sendMessage's URL on a server: the token is part of the path (https://core.telegram.org/bots/api#making-requests). */
const sendMessageUrl = (apiUrl: string, token: string) => `${apiUrl.replace(/\/+$/, '')}/bot${token}/sendMessage`;

/**
 * The message's HTML: the title in bold on the first line, the summary and body under it, every
 * text escaped. Cut to Telegram's 4096 characters of visible text before escaping, so the count is
 * of what Telegram counts and no cut falls inside an entity or a tag.
 */
export function telegramText(title: string, body: string): string {
  const room = Math.max(0, TELEGRAM_TEXT_MAX - title.length - 1);
  const heading = truncateText(title, TELEGRAM_TEXT_MAX);
  return room === 0 ? `<b>${escapeHtml(heading)}</b>` : `<b>${escapeHtml(heading)}</b>\n${escapeHtml(truncateText(body, room))}`;
}

/**
 * Telegram, through the Bot API (https://core.telegram.org/bots/api#sendmessage): POST JSON to
 * `<server>/bot<token>/sendMessage` with `{chat_id, text, parse_mode: 'HTML', link_preview_options,
 * message_thread_id?}`; chat_id a number for a chat's id, the @username of a public channel as is.
 * The token is in the URL, not a header: the URL is built here, never stored. Channels are compared
 * by chat (two bots posting to one chat count as one).
 */
export const telegram = {
  type: 'telegram',
  label: 'Telegram',
  about: 'Bot API sendMessage: a bot token from @BotFather, a chat_id or @channelusername, an optional message_thread_id',
  fields: [
    {
      name: 'botToken',
      mark: 'secret',
      label: 'Bot token',
      help: 'The bot’s token from @BotFather (123456789:AA...): whoever has it can post as the bot',
      input: { kind: 'string', max: 100 },
    },
    {
      name: 'chatId',
      mark: 'target',
      label: 'Chat ID',
      recipient: true,
      help: 'The chat posted to: its id (negative for a group or channel, e.g. -1001234567890) or a public channel’s @username',
      input: { kind: 'string', max: 33 },
    },
    {
      name: 'threadId',
      mark: 'target',
      label: 'Topic (thread) ID',
      help: 'The forum topic’s message_thread_id, for a group with topics; none for the main chat',
      input: { kind: 'string', max: 20, nullable: true },
    },
    {
      name: 'apiUrl',
      mark: 'target',
      label: 'Bot API server URL',
      url: true,
      help: 'The URL of a Bot API server of your own (http or https, a public host); none for Telegram’s own (api.telegram.org)',
      input: { kind: 'string', max: 2048, nullable: true },
    },
    MESSAGE_PREFIX_FIELD,
  ],
  normalize: (config, allowsPrivate) => ({
    botToken: botTokenOf(config),
    chatId: chatIdOf(config),
    threadId: threadIdOf(config),
    apiUrl: apiUrlOf(config, allowsPrivate),
    messagePrefix: config.messagePrefix ?? null,
  }),
  transport: 'post',
  post: ({ parts, config }) => {
    const chatId = config.chatId ?? '';
    return {
      url: config.botToken ? sendMessageUrl(config.apiUrl ?? TELEGRAM_API_URL, config.botToken) : undefined,
      body: {
        chat_id: chatId.startsWith('@') ? chatId : Number(chatId),
        ...(config.threadId ? { message_thread_id: Number(config.threadId) } : {}),
        text: telegramText(parts.prefix ? `${parts.prefix} ${parts.title}` : parts.title, parts.body),
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      },
    };
  },
  sample: {
    botToken: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0',
    chatId: '-1001234567890',
    threadId: null,
    apiUrl: null,
    messagePrefix: null,
  },
} as const satisfies NotifierDescriptor<'telegram'>;
