import { addresses } from './config-rules';
import type { NotifierDescriptor } from './notifier';

/** E-mail (emailContent) through the organization's SMTP server or the service's own. */
export const email = {
  type: 'email',
  label: 'Email',
  fields: [{ name: 'recipients', mark: 'target', help: 'The addresses mailed (lowercased, each once)' }],
  normalize: (config) => ({ recipients: addresses(config.recipients) }),
  sample: { recipients: ['ops@example.com'] },
} as const satisfies NotifierDescriptor<'email'>;
