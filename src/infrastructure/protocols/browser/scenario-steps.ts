import type { Page } from 'playwright-core';
import type { ScenarioStep } from '../../../domain/checks/browser-scenario';
import type { CheckReasonCode } from '../../../domain/checks/check-result';

/** A step that ran and found the page wrong (the code says how). */
export class StepFailure extends Error {
  /** `url`: the address that answered, when the step loaded a page. */
  constructor(
    readonly code: CheckReasonCode,
    message: string,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

const POLL_MS = 100;

/** What a step may spend: `waitMs` for elements and expectations, `navigationMs` for page loads. */
export interface StepBudget {
  readonly waitMs: number;
  readonly navigationMs: number;
}

/** Performs one step on the page; throws StepFailure, or Playwright's errors (mapped by the runner). */
export async function performStep(page: Page, step: ScenarioStep, budget: StepBudget, siteUrl: string): Promise<void> {
  const timeout = budget.waitMs;
  switch (step.kind) {
    case 'goto':
      return navigate(page, gotoUrl(page, step.target, siteUrl), budget.navigationMs);
    case 'click':
      return page.locator(step.selector).first().click({ timeout });
    case 'fill':
      return page.locator(step.selector).first().fill(step.text, { timeout });
    case 'press':
      return page.keyboard.press(step.key);
    case 'waitFor':
      return void (await page.locator(step.selector).first().waitFor({ state: 'visible', timeout }));
    case 'wait':
      return page.waitForTimeout(Math.min(step.ms, budget.navigationMs));
    case 'expectText':
      return until(
        page,
        () => visibleText(page).then((text) => text.includes(step.text)),
        timeout,
        () => new StepFailure('keywordMissing', `the page does not show "${step.text}"`),
      );
    case 'expectNoText':
      if ((await visibleText(page)).includes(step.text)) throw new StepFailure('keywordFound', `the page shows "${step.text}"`);
      return;
    case 'expectTitle':
      return until(
        page,
        () => page.title().then((title) => title.includes(step.text)),
        timeout,
        async () =>
          new StepFailure('stepFailed', `the title ${JSON.stringify(await page.title().catch(() => ''))} does not contain "${step.text}"`),
      );
    case 'expectUrl':
      return until(
        page,
        async () => page.url().includes(step.text),
        timeout,
        () => new StepFailure('stepFailed', `the URL ${page.url()} does not contain "${step.text}"`),
      );
  }
}

/** Loads a URL until its load event; an HTTP error status fails the step. */
export async function navigate(page: Page, url: string, timeout: number): Promise<void> {
  const response = await page.goto(url, { timeout, waitUntil: 'load' });
  if (response && response.status() >= 400) {
    throw new StepFailure('unexpectedStatus', `${response.url()} answered HTTP ${response.status()}`, response.url());
  }
}

/** Where a goto leads: a path is resolved against the current page (the website's url before any page loaded). */
export const gotoUrl = (page: Page, target: string, siteUrl: string) =>
  new URL(target, /^https?:/.test(page.url()) ? page.url() : siteUrl).href;

/** The text a person sees (innerText), read again after navigations. */
const visibleText = async (page: Page): Promise<string> => String(await page.evaluate('document.body ? document.body.innerText : ""'));

/** Polls `holds` until it does or `timeoutMs` pass (a navigation in between just means try again). */
async function until(
  page: Page,
  holds: () => Promise<boolean>,
  timeoutMs: number,
  failure: () => StepFailure | Promise<StepFailure>,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await holds().catch(() => false)) return;
    if (page.isClosed()) throw new Error('The page was closed');
    if (Date.now() >= end) throw await failure();
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, end - Date.now()))));
  }
}
