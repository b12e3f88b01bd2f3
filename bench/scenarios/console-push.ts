import type { Browser } from 'playwright-core';
import { PushService } from '../../test/support/peers/push-service';
import { openConsoleWithWorker, shownWithTag } from '../../test/support/push-browser';
import { goal, type Goal } from '../support/verdict';

/** What the console bench hands the push scenario: a service with a notification worker that admits loopback receivers. */
export interface ConsolePushInput {
  readonly browser: Browser;
  /** The service's base URL. */
  readonly url: string;
  /** An organization admin's API token (`wsm_`), acting for `userId`. */
  readonly token: string;
  readonly userId: string;
  /** A monitor of the organization the scenario opens incidents on. */
  readonly monitorId: string;
  /** Incidents opened (the figure is their median). */
  readonly runs?: number;
}

export interface ConsolePushFigures {
  /** Taps from the notification shown to the incident acknowledged (its Acknowledge action: one). */
  readonly tapsToAcknowledgeFromPush: number | null;
  /** From the incident's opening (the API call) to its notification shown by the console's service worker, median of the runs. */
  readonly pushToIncidentShownMs: number;
  readonly pushToIncidentShownSamplesMs: readonly number[];
}

const api = async (input: ConsolePushInput, method: string, path: string, body?: unknown, auth = true) => {
  const response = await fetch(`${input.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${input.token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as Record<string, any>;
};

/**
 * The phone at 3 a.m., measured: a device of the admin subscribed (its keys the scenario's own, on a
 * loopback push service that checks VAPID and decrypts each push), a web-push channel to the admin,
 * the console open in Chromium at 375 x 800 with its real service worker. Each run opens an
 * incident through the API, waits for the push service to take the push, delivers the decrypted
 * data to the worker (CDP ServiceWorker.deliverPushMessage, as the browser does with its push
 * service's message) and waits for the notification: `pushToIncidentShownMs`. The last run then taps
 * the notification's Acknowledge action (the worker's notificationclick path) and reads the
 * incident back: `tapsToAcknowledgeFromPush` is 1 when that acknowledged it, null when it did not.
 */
/** More than 3 openings in 5 s are a storm (the service's default): runs are spaced so that at most 2 fall in any 5 s. */
const OPENING_SPACING_MS = 2_600;
/** How long a push may take to reach the push service before the scenario fails (rather than waiting for ever). */
const PUSH_WAIT_MS = 15_000;

export async function measureConsolePush(input: ConsolePushInput): Promise<{ figures: ConsolePushFigures; goals: Record<string, Goal> }> {
  const push = new PushService('127.0.0.1');
  await push.start();
  const consoleTab = await openConsoleWithWorker(input.browser, input.url);
  const channel = { id: '' };
  const subscription = { id: '' };
  try {
    const { vapidPublicKey } = await api(input, 'GET', '/api/me/push-subscriptions');
    const device = push.device(vapidPublicKey as string);
    subscription.id = (await api(input, 'POST', '/api/me/push-subscriptions', { ...device.subscription, label: 'Bench phone' }))
      .id as string;
    channel.id = (
      await api(input, 'POST', '/api/notification-channels', { name: 'Bench push', type: 'web-push', config: { userIds: [input.userId] } })
    ).id as string;
    const samples: number[] = [];
    let taps: number | null = null;
    const runs = input.runs ?? 5;
    for (let run = 0; run < runs; run++) {
      const taken = push.to(device).length;
      const started = performance.now();
      const incident = await api(input, 'POST', '/api/incidents', { monitorId: input.monitorId, title: `Bench push ${run + 1}` });
      const incidentId = incident.publicId as string;
      const deadline = performance.now() + PUSH_WAIT_MS;
      while (
        !push
          .to(device)
          .slice(taken)
          .some((p) => p.payload?.tag === incidentId)
      ) {
        if (performance.now() > deadline) throw new Error(`no push for incident ${incidentId} within ${PUSH_WAIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const pushed = push.to(device).find((p) => p.payload?.tag === incidentId)!;
      if (pushed.problems.length > 0) throw new Error(`the push service refused the push: ${pushed.problems.join('; ')}`);
      await consoleTab.deliver(JSON.stringify(pushed.payload));
      const { at } = await shownWithTag(consoleTab, incidentId);
      samples.push(Math.round(at - started));
      if (run === runs - 1) {
        const acknowledged = await consoleTab.tap('acknowledge', incidentId);
        const after = await api(input, 'GET', `/api/incidents/${incidentId}`);
        taps = acknowledged === true && typeof after.acknowledgedAt === 'string' ? 1 : null;
      }
      await api(input, 'POST', `/api/incidents/${incidentId}/resolve`).catch(() => undefined);
      await consoleTab.clear();
      // Openings closer together are a storm, told as one digest (as they should be): one incident at a time is measured.
      const spent = performance.now() - started;
      if (run < runs - 1 && spent < OPENING_SPACING_MS) await new Promise((resolve) => setTimeout(resolve, OPENING_SPACING_MS - spent));
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const figures: ConsolePushFigures = {
      tapsToAcknowledgeFromPush: taps,
      pushToIncidentShownMs: sorted[Math.floor(sorted.length / 2)]!,
      pushToIncidentShownSamplesMs: samples,
    };
    return {
      figures,
      goals: {
        tapsToAcknowledgeFromPush: goal(figures.tapsToAcknowledgeFromPush, '<=', 2, 'taps'),
        pushToIncidentShownMs: goal(figures.pushToIncidentShownMs, '<=', 2000, 'ms'),
      },
    };
  } finally {
    if (channel.id) await api(input, 'DELETE', `/api/notification-channels/${channel.id}`).catch(() => undefined);
    if (subscription.id) await api(input, 'DELETE', `/api/me/push-subscriptions/${subscription.id}`).catch(() => undefined);
    await consoleTab.close();
    await push.stop();
  }
}
