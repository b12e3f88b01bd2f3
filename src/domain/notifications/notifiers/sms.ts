import { phoneNumbers } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** SMS (smsContent, one GSM-7 segment) through the deployment's provider. */
export const sms = {
  type: 'sms',
  label: 'SMS',
  about: 'E.164 phoneNumbers',
  fields: [
    {
      name: 'phoneNumbers',
      mark: 'target',
      label: 'Phone numbers',
      recipient: true,
      help: 'Numbers in E.164 (+4930123456), each once',
      input: { kind: 'list', itemMax: 16, min: 1, max: 20 },
    },
  ],
  normalize: (config) => ({ phoneNumbers: phoneNumbers(config.phoneNumbers) }),
  transport: 'sms',
  sample: { phoneNumbers: ['+14155550100'] },
} as const satisfies NotifierDescriptor<'sms'>;
