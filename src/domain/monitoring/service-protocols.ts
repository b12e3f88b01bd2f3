/** How a service monitor checks: its protocol (the default), or only that its port accepts (`tcp`). */
export const CHECK_MODES = ['protocol', 'tcp'] as const;
export type CheckMode = (typeof CHECK_MODES)[number];

export const TLS_MODES = ['none', 'starttls', 'implicit'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

export const MAILBOX_PROTOCOLS = ['imap', 'pop3'] as const;
export type MailboxProtocol = (typeof MAILBOX_PROTOCOLS)[number];
