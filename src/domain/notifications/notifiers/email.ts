import { addresses } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** E-mail (emailContent) through the organization's SMTP server or the service's own. */
export const email = {
  type: 'email',
  label: 'Email',
  about: 'recipients',
  fields: [
    {
      name: 'recipients',
      mark: 'target',
      label: 'Recipients',
      recipient: true,
      help: 'Recipient addresses (lowercased, each once)',
      input: { kind: 'list', itemMax: 254, min: 1, max: 50 },
    },
  ],
  normalize: (config) => ({ recipients: addresses(config.recipients) }),
  transport: 'email',
  sample: { recipients: ['ops@example.com'] },
} as const satisfies NotifierDescriptor<'email'>;
