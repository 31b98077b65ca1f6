/** Debian's Chromium driven by playwright-core, started as a server so the harness knows its pid. */
import { chromium, type Browser, type BrowserServer } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking ones Chromium keeps dialing hosts this machine cannot reach.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-default-apps',
];

/** A launched browser, connected, with the pid of the browser process. */
export interface LaunchedBrowser {
  readonly browser: Browser;
  readonly server: BrowserServer;
  readonly pid: number | undefined;
}

/** Launches headless Chromium (never a downloaded browser) and connects to it. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
    host: '127.0.0.1',
  });
  const browser = await chromium.connect(server.wsEndpoint(), { timeout: 30_000 });
  return { browser, server, pid: server.process().pid };
}

/** Closes the browser; kills its process group by pid if it does not go within the bound. */
export async function closeBrowser(launched: LaunchedBrowser, timeoutMs = 10_000): Promise<void> {
  const bounded = (p: Promise<unknown>): Promise<unknown> =>
    Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  await bounded(launched.browser.close());
  await bounded(launched.server.close());
  if (launched.pid !== undefined) {
    for (const target of [-launched.pid, launched.pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // ESRCH: already gone.
      }
    }
  }
}
