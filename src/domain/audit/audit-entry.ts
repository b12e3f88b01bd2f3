/** What an entry says happened to its resource. */
/** `toolCalled`: an MCP tool call (resource `mcpTool`, the tool's name), whatever its outcome. */
export type AuditAction = 'created' | 'updated' | 'deleted' | 'signedIn' | 'signInFailed' | 'toolCalled' | 'accepted';

/**
 * Who an entry says acted: a person signed in, an API token, an agent, an unknown caller (a failed
 * sign-in), or the service itself (`system`: what it decided, such as a monitor becoming unknown).
 */
export type AuditActorType = 'user' | 'apiToken' | 'agent' | 'anonymous' | 'system';

/** One field's change: the value before and after (null when the field was unset, or the resource new or gone). */
export interface FieldChange {
  readonly before: unknown;
  readonly after: unknown;
}

/** One entry of the audit log: who changed what, when, from where. */
export interface AuditEntry {
  readonly id: string;
  readonly occurredAt: Date;
  readonly organizationId: number | null;
  readonly customerId: number | null;
  readonly actor: {
    readonly type: AuditActorType;
    readonly userId: string | null;
    readonly label: string | null;
    readonly credentialType: string | null;
    readonly credentialId: string | null;
  };
  readonly ip: string | null;
  readonly requestId: string | null;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly action: string;
  readonly changes: Readonly<Record<string, FieldChange>>;
}

/** The oldest moment an entry is kept at, for a retention of `days` days. */
export function auditRetentionCutoff(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 1) throw new RangeError('audit retention must be a whole number of days, at least 1');
  return new Date(now.getTime() - days * 86_400_000);
}
