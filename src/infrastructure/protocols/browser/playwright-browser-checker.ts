import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import type { CheckContext, Checker, ScreenshotStore } from '../../../application/checks/ports';
import type { BrowserCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, type BrowserEvidence, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { findingFor, ProbeError } from '../shared/probe-error';
import type { ChromiumBrowser } from './chromium-browser';
import { runScenario } from './scenario-runner';

export interface BrowserCheckSettings {
  /** Most a step waits for an element or an expectation (navigations get the whole remaining time). */
  readonly stepWaitMs: number;
}

type ScreenshotOwner = NonNullable<BrowserCheckRequest['screenshotOwner']>;

/** Kept free before the request's deadline for the screenshot and its storage. */
const reserveMs = (timeoutMs: number) => Math.min(2_000, timeoutMs * 0.2);
const SCREENSHOT_TIMEOUT_MS = 3_000;
const READ_TIMEOUT_MS = 1_000;

/**
 * Scripted-browser scenarios (Playwright driving the shared Chromium): up when every step passes;
 * otherwise down with the failed step's reason and line, and a PNG screenshot of the page kept
 * through the ScreenshotStore. The evidence lists the steps run with their durations, the final
 * URL and title, and the connections the target policy refused.
 */
export class PlaywrightBrowserChecker implements Checker<BrowserCheckRequest> {
  readonly kind = 'browser' as const;

  constructor(
    private readonly browser: ChromiumBrowser,
    private readonly screenshots: ScreenshotStore,
    private readonly settings: BrowserCheckSettings,
  ) {}

  async check(request: BrowserCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const hardDeadline = started + request.timeoutSeconds * 1000;
    const deadline = hardDeadline - reserveMs(request.timeoutSeconds * 1000);
    let findings: Finding[] = [];
    let evidence: BrowserEvidence | null = null;
    try {
      evidence = await this.browser.withSession(context.deadline.signal, async (session) => {
        const outcome = await runScenario(session, request, { deadline, stepWaitMs: this.settings.stepWaitMs });
        if (outcome.failure) findings = [outcome.failure];
        const keep = outcome.failure && request.screenshotOwner && !context.deadline.passed;
        return {
          steps: outcome.steps,
          finalUrl: pageUrl(session.page),
          title: await bounded(session.page.title(), READ_TIMEOUT_MS),
          screenshotId: keep
            ? await this.screenshot(
                session.page,
                request.screenshotOwner!,
                new Date(context.now.getTime() + performance.now() - started),
                hardDeadline,
              )
            : null,
          blocked: session.proxy.failures(),
        };
      });
    } catch (error) {
      findings = [
        context.deadline.passed && !(error instanceof ProbeError)
          ? down('timeout', `The scenario did not finish within ${request.timeoutSeconds} s`)
          : findingFor(error),
      ];
    }
    return checkResult({
      kind: 'browser',
      findings,
      checkedAt: context.now,
      timings: NO_TIMINGS(performance.now() - started),
      evidence: evidence ? { browser: evidence } : {},
    });
  }

  /**
   * Takes and keeps a screenshot of the failed page. A screenshot that cannot be had or kept before
   * the deadline (page gone, monitor deleted meanwhile) leaves screenshotId null: the result stands.
   */
  private async screenshot(page: Page, owner: ScreenshotOwner, takenAt: Date, hardDeadline: number): Promise<string | null> {
    const timeout = Math.min(SCREENSHOT_TIMEOUT_MS, hardDeadline - performance.now() - 500);
    if (timeout < 100) return null;
    const png = await page.screenshot({ type: 'png', timeout }).catch(() => null);
    if (!png) return null;
    const id = randomUUID();
    const saved = await this.screenshots.save({ id, monitorId: owner.monitorId, organizationId: owner.organizationId, takenAt, png }).then(
      () => true,
      () => false,
    );
    return saved ? id : null;
  }
}

const pageUrl = (page: Page): string | null => (page.isClosed() ? null : page.url());

/** The value, or null when it does not come within `ms` (a busy or closed page). */
async function bounded<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
