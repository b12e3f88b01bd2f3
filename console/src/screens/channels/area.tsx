import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const ChannelsPage = lazy(() => import('./channels-page').then((m) => m.ChannelsPage));
const ChannelPage = lazy(() => import('./channel-page').then((m) => m.ChannelPage));

/** Notification channels with their health, the test button and their deliveries: a place on the Organization page. */
export const channelsArea: Area = {
  routes: [
    { pattern: '/channels', render: (_, user) => <ChannelsPage user={user} /> },
    { pattern: '/channels/:id', render: ({ id }, user) => <ChannelPage key={id} id={id!} user={user} /> },
  ],
  settings: [
    {
      to: '/channels',
      label: 'Notification channels',
      order: 20,
      description: 'Where alerts go (webhooks, email, SMS, chat), how each channel is doing, a test button and what each was sent.',
    },
  ],
};
