import { AppError } from '../../domain/shared/app-error';
import type { ChannelConfig, ChannelType } from '../../domain/notifications/channel-config';
import type { ChannelEvent } from '../../domain/notifications/channel-events';
import { SOURCE_CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import { isSigned } from '../../domain/notifications/notifiers';
import {
  type ChannelScope,
  NotificationChannel,
  assertOverridable,
  assertRecipientsFree,
} from '../../domain/notifications/notification-channel';
import { type Actor, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { TargetPolicy } from '../shared/target-policy';
import type { ChannelOwners, NotificationChannelRepository } from './ports';
import type { WebhookSecrets } from './webhook-secrets';
import { releaseDefault } from './default-channel';
import { assertPeopleSeeChannel } from './channel-people';

export interface NewChannelInput {
  key?: string | null;
  name: string;
  /** Required, except for a monitor override, which takes its source's type and config when it names none. */
  type?: ChannelType;
  config?: ChannelConfig;
  events?: readonly ChannelEvent[];
  enabled?: boolean;
  /** The organization's default channel (organization channels only); replaces the current default. */
  isDefault?: boolean;
  customerId?: number | string;
  websiteId?: number | string;
  sourceChannelId?: unknown;
}

/** The channel, and the webhook signing secret in the clear: shown at create only. */
export interface ChannelWithSecret {
  channel: NotificationChannel;
  secret: string | null;
}

/** Adds a channel of the organization, of a customer, or a monitor's override of a source channel. */
export class CreateNotificationChannel {
  constructor(
    private readonly channels: NotificationChannelRepository,
    private readonly owners: ChannelOwners,
    private readonly secrets: WebhookSecrets,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly targets?: Pick<TargetPolicy, 'isAllowedAddress'>,
  ) {}

  async execute(actor: Actor, input: NewChannelInput): Promise<ChannelWithSecret> {
    requireAction(actor, 'channel.create');
    // The scope's reads (the owner, the source channel and its overrides) check references: before the transaction, on the pool.
    const { scope, source } = await this.scopeOf(actor, input);
    return this.tx.run(async (tx) => {
      const type = input.type ?? source?.type;
      const config = input.config ?? (input.type === undefined || input.type === source?.type ? source?.config : undefined);
      if (type === undefined) throw new AppError('invalidRequestBody', { field: 'type', reason: 'required' });
      if (config === undefined) throw new AppError('invalidRequestBody', { field: 'config', reason: 'required' });
      const channel = new NotificationChannel(
        {
          publicId: this.ids.uuid(),
          organizationId: actor.scope.organizationId,
          scope,
          key: input.key,
          name: input.name,
          type,
          config,
          events: input.events ?? source?.events,
          enabled: input.enabled,
          isDefault: input.isDefault,
          now: this.clock.now(),
        },
        this.targets && ((address) => this.targets!.isAllowedAddress(address)),
      );
      await assertPeopleSeeChannel(this.owners, channel, config, tx);
      assertRecipientsFree(channel, await this.channels.readsIn(tx).sameScope(channel.organizationId, scope.customerId, scope.monitorId));
      if (channel.isDefault) await releaseDefault(this.channels, channel.organizationId, null, tx);
      const secret = isSigned(type) ? this.secrets.issue(channel) : null;
      return { channel: await this.channels.add(channel, tx), secret };
    });
  }

  private async scopeOf(actor: Actor, input: NewChannelInput): Promise<{ scope: ChannelScope; source: NotificationChannel | null }> {
    if (input.websiteId === undefined) {
      if (input.sourceChannelId !== undefined) throw new AppError('invalidRequestBody', { field: 'websiteId', reason: 'required' });
      return {
        scope: { customerId: await this.customerOf(actor, input.customerId), monitorId: null, sourceChannelId: null },
        source: null,
      };
    }
    const sourceRef = channelRef(input.sourceChannelId, SOURCE_CHANNEL_ID);
    const monitor = await this.owners.monitor(actor.scope, String(input.websiteId));
    if (!monitor) throw new AppError('monitorNotFound');
    if (input.customerId !== undefined && (await this.customerOf(actor, input.customerId)) !== monitor.customerId) {
      throw new AppError('invalidRequestBody', { field: 'customerId', reason: 'notTheMonitorsCustomer' });
    }
    const source = await this.channels.findByRef(actor.scope, sourceRef);
    if (!source) throw new AppError('sourceChannelNotFound');
    assertOverridable(source, monitor, await this.channels.overridesOf(source.organizationId, source.id));
    return { scope: { customerId: monitor.customerId, monitorId: monitor.id, sourceChannelId: source.id }, source };
  }

  /** The customer the channel belongs to: a customer-scoped caller's own, or the one named (visible). */
  private async customerOf(actor: Actor, ref: number | string | undefined): Promise<number | null> {
    if (ref === undefined) return actor.scope.customerId;
    const customer = await this.owners.customer(actor.scope, String(ref));
    if (!customer) throw new AppError('customerNotFound');
    return customer.id;
  }
}
