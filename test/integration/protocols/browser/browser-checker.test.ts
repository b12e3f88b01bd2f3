import { expect } from 'chai';
import type { Screenshot, ScreenshotStore } from '../../../../src/application/checks/ports';
import type { TargetVetting } from '../../../../src/application/shared/target-policy';
import { parseScenario } from '../../../../src/domain/checks/browser-scenario';
import type { BrowserCheckRequest } from '../../../../src/domain/checks/check-request';
import { ChromiumBrowser } from '../../../../src/infrastructure/protocols/browser/chromium-browser';
import { PlaywrightBrowserChecker } from '../../../../src/infrastructure/protocols/browser/playwright-browser-checker';
import { testConfig } from '../../../support/test-server';
import { checkContext, TEST_USER_AGENT } from '../../../support/check-requests';
import { LoopbackTargetPolicy } from '../../../support/loopback-target-policy';
import { LoginSite } from '../../../support/peers/login-site';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Loopback only, plus one made-up public name that the policy (not Chromium) resolves to loopback. */
class NamedLoopbackPolicy extends LoopbackTargetPolicy {
  readonly vetted: string[] = [];
  override async vet(host: string): Promise<TargetVetting> {
    this.vetted.push(host);
    return host === 'shop.acme.com' ? { ok: true, hostname: host, addresses: ['127.0.0.1'] } : super.vet(host);
  }
}

class MemoryScreenshots implements ScreenshotStore {
  readonly saved: Screenshot[] = [];
  async save(screenshot: Screenshot) {
    this.saved.push(screenshot);
  }
  async find(monitorId: number, id: string) {
    return this.saved.find((s) => s.id === id && s.monitorId === monitorId) ?? null;
  }
  async purgeBefore() {
    return 0;
  }
}

function aScenario(url: string, script: string, overrides: Partial<BrowserCheckRequest> = {}): BrowserCheckRequest {
  const parsed = parseScenario(script);
  if (!parsed.ok) throw new Error(`test script invalid: line ${parsed.line}: ${parsed.message}`);
  return {
    kind: 'browser',
    url,
    steps: parsed.steps,
    timeoutSeconds: 10,
    screenshotOwner: { monitorId: 1, organizationId: 1 },
    ...overrides,
  };
}

const LOG_IN = 'fill #email "ann@shop.test"\nfill #password "s3cret"\nclick #submit';

describe('browser checker: scenarios in Chromium behind the vetting proxy (loopback)', () => {
  const site = new LoginSite();
  const policy = new NamedLoopbackPolicy();
  const browser = new ChromiumBrowser({ executablePath: testConfig().browserExecutablePath, maxConcurrent: 2 }, policy, TEST_USER_AGENT);
  const screenshots = new MemoryScreenshots();
  const checker = new PlaywrightBrowserChecker(browser, screenshots, { stepWaitMs: 1_000 });

  before(async function () {
    // Chromium's cold start (tens of seconds on a loaded machine) is the service's, not a scenario's:
    // launched here, so each test's 10 s are the scenario's own.
    this.timeout(60_000);
    await site.start();
    await browser.withSession(new AbortController().signal, async () => undefined);
  });
  after(async () => {
    await browser.close();
    await site.stop();
  });

  it('passes a sign-in scenario (form, inline script, fetch, navigation): up with every step timed, final URL and title', async () => {
    const result = await checker.check(
      aScenario(
        site.url(),
        `# sign in\n${LOG_IN}\nexpectText "Welcome back, Ann"\nexpectUrl "/dashboard"\nexpectTitle "Dash"\nexpectNoText "Wrong"`,
      ),
      checkContext(10_000),
    );
    expect(result.status, result.reason?.message).to.equal('up');
    expect(result.kind).to.equal('browser');
    const evidence = result.evidence.browser!;
    expect(evidence.steps.map((s) => [s.line, s.step, s.passed])).to.deep.equal([
      [null, `open ${site.url()}`, true],
      [2, 'fill #email "***"', true],
      [3, 'fill #password "***"', true],
      [4, 'click #submit', true],
      [5, 'expectText "Welcome back, Ann"', true],
      [6, 'expectUrl /dashboard', true],
      [7, 'expectTitle Dash', true],
      [8, 'expectNoText Wrong', true],
    ]);
    expect(evidence.steps.every((s) => s.durationMs >= 0)).to.equal(true);
    expect(evidence).to.include({ finalUrl: site.url('/dashboard'), title: 'Dashboard', screenshotId: null });
    expect(result.timings.totalMs).to.be.greaterThan(0);
  });

  it("sends Chromium's User-Agent read as Chrome (not HeadlessChrome) with the service's product token appended, on every request", async () => {
    site.userAgents.length = 0;
    const result = await checker.check(
      aScenario(site.url(), `${LOG_IN}\nexpectText "Welcome back, Ann"`, { screenshotOwner: null }),
      checkContext(10_000),
    );
    expect(result.status, result.reason?.message).to.equal('up');
    expect(site.userAgents.length).to.be.at.least(2);
    for (const userAgent of site.userAgents) {
      expect(userAgent).to.match(/^Mozilla\/5\.0 .* Chrome\/[\d.]+ .*MonitoringService\/1\.0\.0 \(\+http:\/\/checks\.test\.example\)$/);
      expect(userAgent).not.to.include('HeadlessChrome');
    }
  });

  it('fails on a missing text with keywordMissing naming the line and step, and keeps a PNG screenshot of the page', async () => {
    const result = await checker.check(
      aScenario(site.url(), `${LOG_IN}\nexpectText "Order history"`, { screenshotOwner: { monitorId: 42, organizationId: 7 } }),
      checkContext(10_000),
    );
    expect(result.status).to.equal('down');
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'keywordMissing',
      message: 'Line 4 (expectText "Order history"): the page does not show "Order history"',
    });
    const evidence = result.evidence.browser!;
    expect(evidence.steps.at(-1)).to.include({ line: 4, passed: false });
    const shot = screenshots.saved.find((s) => s.id === evidence.screenshotId);
    expect(shot, 'screenshot kept under the evidence id').to.include({ monitorId: 42, organizationId: 7 });
    expect([...shot!.png.subarray(0, 8)]).to.deep.equal(PNG_MAGIC);
  });

  it('fails a step whose element never shows with stepFailed, and a page answering 500 with unexpectedStatus', async () => {
    const missing = await checker.check(aScenario(site.url(), 'click #missing', { screenshotOwner: null }), checkContext(10_000));
    expect(missing.reason).to.deep.include({
      code: 'stepFailed',
      message: 'Line 1 (click #missing): no visible element matched within 1000 ms',
    });
    expect(missing.evidence.browser!.screenshotId, 'no owner, no screenshot').to.equal(null);
    const broken = await checker.check(aScenario(site.url(), 'goto /broken'), checkContext(10_000));
    expect(broken.reason).to.deep.include({
      code: 'unexpectedStatus',
      message: `Line 1 (goto /broken): ${site.url('/broken')} answered HTTP 500`,
    });
  });

  it('refuses targets the policy refuses, over http and https, before any connection, and names them', async () => {
    const http = await checker.check(aScenario(site.url(), 'goto http://10.1.2.3/admin'), checkContext(10_000));
    expect(http.reason).to.deep.include({
      code: 'targetRejected',
      message: 'Line 1 (goto http://10.1.2.3/admin): 10.1.2.3 is not a public address (nonPublicAddress)',
    });
    const https = await checker.check(aScenario(site.url(), 'click #submit\ngoto https://192.168.1.1/'), checkContext(10_000));
    expect(https.reason).to.deep.include({ code: 'targetRejected' });
    expect(https.reason!.message).to.match(/^Line 2 \(goto https:\/\/192\.168\.1\.1\/\): 192\.168\.1\.1 is not a public address/);
    expect(https.evidence.browser!.blocked).to.deep.include({
      target: '192.168.1.1:443',
      code: 'targetRejected',
      message: '192.168.1.1 is not a public address (nonPublicAddress)',
    });
    const opening = await checker.check(aScenario('http://10.0.0.8/', 'expectText "x"'), checkContext(10_000));
    expect(opening.reason).to.deep.include({
      code: 'targetRejected',
      message: 'Opening http://10.0.0.8/: 10.0.0.8 is not a public address (nonPublicAddress)',
    });
  });

  it('blocks refused page resources without failing the page, and lists them', async () => {
    site.imageUrl = 'http://10.9.9.9/logo.png';
    const result = await checker.check(aScenario(site.url('/with-image'), 'expectText "Pictured"'), checkContext(10_000));
    expect(result.status).to.equal('up');
    expect(result.evidence.browser!.blocked).to.deep.equal([
      { target: '10.9.9.9:80', code: 'targetRejected', message: '10.9.9.9 is not a public address (nonPublicAddress)' },
    ]);
  });

  it('resolves names through the policy and connects to the vetted address (Chromium resolves nothing itself)', async () => {
    const result = await checker.check(
      aScenario(site.url('/', 'shop.acme.com'), `${LOG_IN}\nexpectText "Welcome back"`),
      checkContext(10_000),
    );
    expect(result.status, result.reason?.message).to.equal('up');
    expect(result.evidence.browser!.finalUrl).to.equal(site.url('/dashboard', 'shop.acme.com'));
    expect(policy.vetted).to.include('shop.acme.com');
  });

  it('gives every check a fresh context: no cookies carry over', async () => {
    const first = await checker.check(aScenario(site.url('/cookie'), 'goto /cookies\nexpectText "visited=yes"'), checkContext(10_000));
    expect(first.status, first.reason?.message).to.equal('up');
    const second = await checker.check(aScenario(site.url('/cookies'), 'expectText "cookies: []"'), checkContext(10_000));
    expect(second.status, second.reason?.message).to.equal('up');
  });

  it('keeps to the request timeout: a page that never loads is down with timeout before the deadline', async () => {
    const started = Date.now();
    const result = await checker.check(aScenario(site.url('/hang'), 'expectText "x"', { timeoutSeconds: 2 }), checkContext(2_000));
    expect(result.reason).to.deep.include({ code: 'timeout' });
    expect(result.reason!.message).to.match(/^Opening http:\/\/127\.0\.0\.1:\d+\/hang: /);
    expect(Date.now() - started).to.be.below(2_000);
  });

  it('is down with protocolError when the browser cannot start, and tries again on the next check', async () => {
    // An executable that is not Chromium: it exits at once.
    const missing = new ChromiumBrowser({ executablePath: '/bin/false', maxConcurrent: 1 }, policy);
    const failing = new PlaywrightBrowserChecker(missing, screenshots, { stepWaitMs: 1_000 });
    try {
      for (let i = 0; i < 2; i++) {
        const result = await failing.check(aScenario(site.url(), 'wait 1'), checkContext(5_000));
        expect(result.reason).to.deep.include({ code: 'protocolError' });
        expect(result.reason!.message).to.match(/^The browser could not start: /);
      }
    } finally {
      await missing.close();
    }
  });

  it('runs at most maxConcurrent scenarios at once; a queued one gives up when its deadline passes', async () => {
    const single = new ChromiumBrowser({ executablePath: testConfig().browserExecutablePath, maxConcurrent: 1 }, policy);
    const one = new PlaywrightBrowserChecker(single, screenshots, { stepWaitMs: 1_000 });
    try {
      const slow = one.check(aScenario(site.url(), 'wait 1500', { timeoutSeconds: 5 }), checkContext(5_000));
      const queued = one.check(aScenario(site.url(), 'wait 1', { timeoutSeconds: 1 }), checkContext(500));
      const [slowResult, queuedResult] = await Promise.all([slow, queued]);
      expect(slowResult.status, slowResult.reason?.message).to.equal('up');
      expect(queuedResult.reason).to.deep.include({
        code: 'timeout',
        message: 'No browser was free in time (at most 1 scenarios run at once)',
      });
      const after = await one.check(aScenario(site.url(), 'expectTitle "Sign in"'), checkContext(5_000));
      expect(after.status, 'the place is free again').to.equal('up');
    } finally {
      await single.close();
    }
  });

  it('without Chromium installed, fails with a reason naming the package to install (or BROWSER_EXECUTABLE_PATH)', async () => {
    const missing = new ChromiumBrowser({ executablePath: '/nonexistent/chromium', maxConcurrent: 1 }, policy);
    const result = await new PlaywrightBrowserChecker(missing, screenshots, { stepWaitMs: 1_000 }).check(
      aScenario(site.url(), 'expectText "Sign in"'),
      checkContext(10_000),
    );
    await missing.close();
    expect(result.status).to.equal('down');
    expect(result.reason?.message).to.equal(
      '/nonexistent/chromium is not installed (needed for scripted-browser checks): ' +
        'install the Debian package chromium (apt-get install -y chromium), or set BROWSER_EXECUTABLE_PATH',
    );
  });
});
