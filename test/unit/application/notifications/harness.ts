import { CreateNotificationChannel } from '../../../../src/application/notifications/create-notification-channel';
import { ListNotificationChannels } from '../../../../src/application/notifications/list-notification-channels';
import { GetNotificationChannel } from '../../../../src/application/notifications/get-notification-channel';
import { UpdateNotificationChannel } from '../../../../src/application/notifications/update-notification-channel';
import { DeleteNotificationChannel } from '../../../../src/application/notifications/delete-notification-channel';
import { RouteChannelEvent } from '../../../../src/application/notifications/route-channel-event';
import { WebhookSecrets } from '../../../../src/application/notifications/webhook-secrets';
import { UpdateOrganizationSmtp } from '../../../../src/application/notifications/update-organization-smtp';
import { GetOrganizationSmtp } from '../../../../src/application/notifications/get-organization-smtp';
import { RemoveOrganizationSmtp } from '../../../../src/application/notifications/remove-organization-smtp';
import {
  FakeChannelOwners,
  FakeNotificationChannels,
  FakeOrganizationSmtp,
  FakeSmtpVerifier,
} from '../../../support/fakes/notifications-fakes';
import { FakeTargetPolicy, immediateTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import { fakeCipher } from '../../../support/fakes/monitoring-fakes';
import { plainSecrets } from '../../../support/fakes/identity-fakes';
import { ManualClock } from '../../../support/manual-clock';

/**
 * Organization 1 with customers 10 and 11; monitor 100 belongs to customer 10, monitor 200 to
 * customer 11. Organization 2 has customer 20 and monitor 300.
 */
export function harness() {
  const channels = new FakeNotificationChannels();
  const owners = new FakeChannelOwners();
  owners.customers.push({ id: 10, organizationId: 1 }, { id: 11, organizationId: 1 }, { id: 20, organizationId: 2 });
  owners.monitors.push(
    { id: 100, organizationId: 1, customerId: 10 },
    { id: 200, organizationId: 1, customerId: 11 },
    { id: 300, organizationId: 2, customerId: 20 },
  );
  const smtp = new FakeOrganizationSmtp();
  const verifier = new FakeSmtpVerifier();
  const policy = new FakeTargetPolicy();
  const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
  const secrets = new WebhookSecrets(plainSecrets, fakeCipher);
  const tx = immediateTransactions;
  return {
    channels,
    owners,
    smtp,
    verifier,
    policy,
    clock,
    secrets,
    create: new CreateNotificationChannel(channels, owners, secrets, tx, sequentialIds(), clock),
    list: new ListNotificationChannels(channels, owners),
    get: new GetNotificationChannel(channels),
    update: new UpdateNotificationChannel(channels, owners, secrets, tx, clock),
    remove: new DeleteNotificationChannel(channels, tx),
    route: new RouteChannelEvent(channels),
    updateSmtp: new UpdateOrganizationSmtp(smtp, policy, verifier, fakeCipher, clock, immediateTransactions),
    getSmtp: new GetOrganizationSmtp(smtp),
    removeSmtp: new RemoveOrganizationSmtp(smtp, immediateTransactions),
  };
}
