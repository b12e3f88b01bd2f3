import { phoneNumbers } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** SMS (smsContent, one GSM-7 segment) through the deployment's provider. */
export const sms = {
  type: 'sms',
  label: 'SMS',
  fields: [{ name: 'phoneNumbers', mark: 'target', help: 'The numbers texted, in E.164 (+14155550100), each once' }],
  normalize: (config) => ({ phoneNumbers: phoneNumbers(config.phoneNumbers) }),
  sample: { phoneNumbers: ['+14155550100'] },
} as const satisfies NotifierDescriptor<'sms'>;
