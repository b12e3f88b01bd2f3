import type { Browser, Page } from 'playwright-core';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import { ProbeError } from '../shared/probe-error';
import { chromiumBrowser, isInstalled, notInstalledReason } from '../system-tools';
import { ConcurrencyGate } from './concurrency-gate';
import { VettingProxy } from './vetting-proxy';

export interface BrowserSettings {
  /** Chromium to drive (BROWSER_EXECUTABLE_PATH; Debian's package by default). */
  readonly executablePath: string;
  /** Scenarios running at once in this process; the others wait for a place (within their timeout). */
  readonly maxConcurrent: number;
}

/** One check's browser: a fresh context whose every connection goes through its own vetting proxy. */
export interface BrowserSession {
  readonly page: Page;
  readonly proxy: VettingProxy;
}

/** The launch-wide proxy: only a context without its own proxy would use it, and it connects nowhere. */
const REFUSE_ALL: TargetPolicy = {
  vet: async () => ({ ok: false, reason: 'nonPublicAddress' }),
  isAllowedAddress: () => false,
};

const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * One headless Chromium per service, launched on first use (and again after a crash), shared by
 * every scenario: each gets a fresh browser context (no shared cookies or storage), closed after
 * it. Chromium's own DNS answers nothing (`--host-resolver-rules`), QUIC and non-proxied WebRTC
 * UDP are off, and loopback is proxied too (`<-loopback>`), so the only way out is the proxy.
 */
export class ChromiumBrowser {
  private browser: Promise<Browser> | null = null;
  private readonly guard = new VettingProxy(REFUSE_ALL);
  private guardUrl: Promise<string> | null = null;
  private readonly gate: ConcurrencyGate;
  private closed = false;
  /** What each context sends as User-Agent, learnt from the launched Chromium (undefined: Chromium's own). */
  private contextUserAgent: string | undefined;

  /**
   * `productToken` (the service's User-Agent) is appended to Chromium's own User-Agent, with
   * "HeadlessChrome" read as "Chrome": pages render as for a browser, sites see who checks them, and
   * firewalls that turn away headless browsers by name let the check through. null keeps Chromium's.
   */
  constructor(
    private readonly settings: BrowserSettings,
    private readonly policy: TargetPolicy,
    private readonly productToken: string | null = null,
  ) {
    this.gate = new ConcurrencyGate(settings.maxConcurrent);
  }

  /** Runs `use` in a fresh session; closing it ends its page, its connections and its proxy. */
  async withSession<T>(signal: AbortSignal, use: (session: BrowserSession) => Promise<T>): Promise<T> {
    const release = await this.gate.acquire(signal);
    const proxy = new VettingProxy(this.policy, signal);
    try {
      const [browser, server] = await Promise.all([this.launched(), proxy.listen()]);
      const context = await browser.newContext({
        proxy: { server, bypass: '<-loopback>' },
        acceptDownloads: false,
        serviceWorkers: 'block',
        viewport: { width: 1280, height: 720 },
        userAgent: this.contextUserAgent,
      });
      const closeContext = () => context.close().catch(() => undefined);
      signal.addEventListener('abort', closeContext, { once: true });
      try {
        return await use({ page: await context.newPage(), proxy });
      } finally {
        signal.removeEventListener('abort', closeContext);
        await closeContext();
      }
    } finally {
      await proxy.close();
      release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    await browser?.then((b) => b.close()).catch(() => undefined);
    if (this.guardUrl) await this.guard.close();
  }

  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new ProbeError('protocolError', 'The browser is shut down'));
    this.browser ??= this.launch().catch((error: Error) => {
      this.browser = null;
      throw error instanceof ProbeError
        ? error
        : new ProbeError('protocolError', `The browser could not start: ${error.message.split('\n')[0]}`);
    });
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    const { executablePath } = this.settings;
    if (!(await isInstalled(executablePath))) {
      throw new ProbeError('protocolError', `${notInstalledReason(chromiumBrowser(executablePath))}, or set BROWSER_EXECUTABLE_PATH`);
    }
    this.guardUrl ??= this.guard.listen();
    const guardUrl = await this.guardUrl;
    // Loaded on first use: Playwright's client alone is about 28 MB of live heap, which a process
    // with no browser scenario would carry (and every full garbage collection would mark) for nothing.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: this.settings.executablePath,
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--disable-background-networking',
        `--proxy-server=${guardUrl}`,
        '--proxy-bypass-list=<-loopback>',
        '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ],
    });
    browser.once('disconnected', () => {
      if (this.browser && !this.closed) this.browser = null;
    });
    if (this.productToken !== null) {
      try {
        const session = await browser.newBrowserCDPSession();
        const { userAgent } = await session.send('Browser.getVersion');
        await session.detach();
        this.contextUserAgent = `${userAgent.replace('HeadlessChrome/', 'Chrome/')} ${this.productToken}`;
      } catch (error) {
        await browser.close().catch(() => undefined);
        throw error;
      }
    }
    return browser;
  }
}
