import type { Actor } from '../shared/actor';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import type { AuditTrail } from './ports';

/** Who made an MCP tool call, as the host resolved the bearer token. */
export interface ToolCaller {
  readonly actor: Actor;
  /** The person's e-mail (for an agent: its authorizing user's), readable after the user is gone. */
  readonly label: string | null;
}

/**
 * One audit entry per MCP tool call, whatever its outcome (a read, a refusal, a change): who called
 * which tool. The change a write tool makes is an entry of its own, written by the audit trigger
 * with the same request id, since the tool ran as a request of the API.
 */
export class RecordToolCall {
  constructor(
    private readonly trail: AuditTrail,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute({ actor, label }: ToolCaller, tool: string): Promise<void> {
    await this.transactions.run((tx) => this.entry({ actor, label }, tool, tx));
  }

  private async entry({ actor, label }: ToolCaller, tool: string, tx: Transaction): Promise<void> {
    await this.trail.append(
      {
        organizationId: actor.scope.organizationId,
        customerId: actor.scope.customerId,
        actorType: actor.kind === 'session' ? 'user' : actor.kind,
        userId: actor.userId,
        actorLabel: label,
        credentialType: actor.kind,
        credentialId: actor.kind === 'session' ? null : actor.tokenId,
        resourceType: 'mcpTool',
        resourceId: tool,
        action: 'toolCalled',
      },
      tx,
    );
  }
}
