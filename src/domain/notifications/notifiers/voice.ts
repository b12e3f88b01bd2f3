import { phoneNumbers } from './config-rules';
import type { NotifierDescriptor } from './notifier';
import { sms } from './sms';

/**
 * A phone call (voiceContent, said by the provider's text to speech) to each number, through the
 * deployment's Twilio account, the SMS provider's. Channels are compared by number.
 */
export const voice = {
  type: 'voice',
  label: 'Phone call',
  about: 'E.164 phoneNumbers called through the deployment’s Twilio account',
  // The SMS type's field, declared once: the API describes phoneNumbers as "sms, voice: ...".
  fields: [{ ...sms.fields[0], label: 'Phone numbers called' }],
  normalize: (config) => ({ phoneNumbers: phoneNumbers(config.phoneNumbers) }),
  transport: 'voice',
  sample: { phoneNumbers: ['+14155550100'] },
} as const satisfies NotifierDescriptor<'voice'>;
