/** What a user does in the VS Code workbench, through the UI only: every wait is on a selector, bounded. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';

/** One entry of the Problems panel as the user sees it. */
export interface ProblemEntry {
  /** The file the entry is listed under (its name as the panel shows it). */
  readonly file: string;
  readonly severity: 'error' | 'warning' | 'info' | 'unknown';
  readonly message: string;
  readonly source: string;
  readonly code: string;
  /** One-based, as the panel shows it ("[Ln 8, Col 15]"). */
  readonly line: number;
  readonly column: number;
}

/** A row of the Problems list as rendered: a file row or a marker row. */
interface RenderedRow {
  index: number;
  last: boolean;
  isMarker: boolean;
  iconClass: string;
  message: string;
  source: string;
  code: string;
  where: string;
  label: string;
}

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;
const QUICK_INPUT_ROWS = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;

/** The workbench in one page, with the user-level actions the suites need. */
export class Workbench {
  constructor(
    readonly page: Page,
    readonly artifactsDir: string,
  ) {
    mkdirSync(artifactsDir, { recursive: true });
  }

  /** Opens `folder` in the workbench and waits until the workbench and its explorer are up. */
  async open(baseUrl: string, folder: string): Promise<void> {
    await this.page.goto(`${baseUrl}/?folder=${encodeURIComponent(folder)}`, { timeout: 60_000 });
    await this.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    await this.page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
    // The explorer shows the folder once the remote file system answered: a sign the server side is ready.
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  /** Opens the command palette (F1) and types `text` into it (leading '>' for commands). */
  async quickOpen(text: string): Promise<void> {
    const box = this.page.locator(QUICK_INPUT_BOX);
    if (!(await box.isVisible())) {
      await this.page.keyboard.press('F1');
      await box.waitFor({ state: 'visible', timeout: 15_000 });
    }
    await box.fill(text);
  }

  /** Closes any quick input (palette, pick, input box) that is open. */
  async dismissQuickInput(): Promise<void> {
    const widget = this.page.locator(QUICK_INPUT);
    if (await widget.isVisible()) {
      await this.page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    }
  }

  /**
   * Types `text` into the palette until a row matching `row` shows, and returns that row. The palette lists
   * what was registered when the text was typed, so the text is typed again while the extension host starts.
   */
  async findQuickInputRow(
    text: string,
    row: (rows: Locator) => Locator,
    timeoutMs: number,
  ): Promise<Locator | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      if (attempt > 0) await this.quickOpen('');
      await this.quickOpen(text);
      const found = row(this.page.locator(QUICK_INPUT_ROWS)).first();
      const wait = Math.max(1, Math.min(2_000 * (attempt + 1), deadline - Date.now()));
      if (
        await found.waitFor({ timeout: wait }).then(
          () => true,
          () => false,
        )
      )
        return found;
    }
    return undefined;
  }

  /** Labels of the palette's command rows that start with `filter` (e.g. 'DLMM:'), once at least one shows. */
  async commandTitles(filter: string, timeoutMs = 30_000): Promise<string[]> {
    await this.findQuickInputRow(`>${filter}`, (rows) => rows.filter({ hasText: filter }), timeoutMs);
    const titles = (await this.page.locator(`${QUICK_INPUT_ROWS} .label-name`).allInnerTexts())
      .map(normalizeSpace)
      .filter((t) => t.startsWith(filter));
    await this.dismissQuickInput();
    return titles;
  }

  /** Runs a command by its palette title (e.g. 'DLMM: Get Quote') as a user would: F1, type, pick. */
  async runCommand(title: string, timeoutMs = 30_000): Promise<void> {
    const row = await this.findQuickInputRow(
      `>${title}`,
      (rows) => rows.filter({ has: this.page.locator('.label-name', { hasText: exactText(title) }) }),
      timeoutMs,
    );
    if (!row) {
      const shown = (await this.page.locator(`${QUICK_INPUT_ROWS} .label-name`).allInnerTexts()).map(
        normalizeSpace,
      );
      await this.dismissQuickInput();
      throw new Error(`command '${title}' is not in the palette (shown: ${shown.join(' | ') || 'none'})`);
    }
    await row.click();
  }

  /** In an open quick pick, chooses the item whose label is exactly `label` (types it to filter first). */
  async pickItem(label: string, timeoutMs = 30_000): Promise<void> {
    const row = this.page
      .locator(QUICK_INPUT_ROWS)
      .filter({ has: this.page.locator('.label-name', { hasText: exactText(label) }) })
      .first();
    await this.page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout: timeoutMs });
    await row.waitFor({ timeout: timeoutMs });
    await this.page.locator(QUICK_INPUT_BOX).fill(label);
    await row.waitFor({ timeout: timeoutMs });
    await row.click();
  }

  /** Answers an input box (a quick input without a list) with `text` and Enter. */
  async answerInput(text: string, timeoutMs = 30_000): Promise<void> {
    await this.page.waitForFunction(
      (sel) => {
        const widget = document.querySelector(sel.widget) as HTMLElement | null;
        const list = document.querySelector(sel.list) as HTMLElement | null;
        return (
          !!widget &&
          widget.offsetParent !== null &&
          widget.style.display !== 'none' &&
          (!list || list.offsetParent === null)
        );
      },
      { widget: QUICK_INPUT, list: `${QUICK_INPUT} .quick-input-list` },
      { timeout: timeoutMs },
    );
    await this.page.locator(QUICK_INPUT_BOX).fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Texts (label and detail) of the rows of the open quick pick, once a row matches `pattern`. */
  async quickInputRows(pattern: RegExp, timeoutMs = 30_000): Promise<string[]> {
    await this.page
      .locator(QUICK_INPUT_ROWS)
      .filter({ hasText: pattern })
      .first()
      .waitFor({ timeout: timeoutMs });
    return (await this.page.locator(QUICK_INPUT_ROWS).allInnerTexts()).map(normalizeSpace);
  }

  /** Opens a workspace file by name through Quick Open and waits for its editor tab to be active. */
  async openFile(fileName: string): Promise<void> {
    await this.quickOpen(fileName);
    const row = this.page.locator(QUICK_INPUT_ROWS).filter({ hasText: fileName }).first();
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    await this.page
      .locator(`.tabs-container .tab.active[aria-label*="${fileName}"]`)
      .waitFor({ timeout: 20_000 });
    await this.activeEditor().waitFor({ state: 'visible', timeout: 20_000 });
  }

  /** The editor that has the focus (or the visible one). */
  activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Moves the cursor of the active editor to a one-based line and column (Go to Line). */
  async goTo(line: number, column: number): Promise<void> {
    await this.quickOpen(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: 10_000 });
    const status = this.page.locator('.statusbar-item[id="status.editor.selection"]');
    await status.filter({ hasText: `Ln ${line}, Col ${column}` }).waitFor({ timeout: 10_000 });
  }

  /** Shows the hover at a one-based position (Show or Focus Hover) and returns its text. */
  async hoverAt(line: number, column: number, until: RegExp = /\S/, timeoutMs = 20_000): Promise<string> {
    await this.goTo(line, column);
    await this.runCommand('Show or Focus Hover');
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    await hover.waitFor({ state: 'visible', timeout: timeoutMs });
    // The hover fills in as providers answer; wait until it holds what the caller expects.
    await this.page
      .waitForFunction(
        ([source, flags]) => {
          const el = document.querySelector('.monaco-hover:not(.hidden) .monaco-hover-content');
          const text = ((el as HTMLElement | null)?.innerText ?? '').trim();
          return text.length > 0 && !/^Loading/i.test(text) && new RegExp(source, flags).test(text);
        },
        [until.source, until.flags] as const,
        { timeout: timeoutMs },
      )
      .catch(() => undefined);
    return normalizeSpace(await hover.innerText());
  }

  /** Hides a hover or widget that is showing. */
  async escape(): Promise<void> {
    await this.page.keyboard.press('Escape');
  }

  /** Titles of the quick fixes offered at a one-based position (Ctrl+.). Leaves the menu open. */
  async quickFixesAt(line: number, column: number, timeoutMs = 20_000): Promise<string[]> {
    await this.goTo(line, column);
    await this.activeEditor()
      .locator('.view-lines')
      .first()
      .focus()
      .catch(() => undefined);
    await this.page.keyboard.press('Control+.');
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return (await rows.allInnerTexts()).map(normalizeSpace).filter((t) => t.length > 0);
  }

  /** Applies the quick fix whose title matches `title` at a position; returns the title applied. */
  async applyQuickFix(line: number, column: number, title: RegExp, timeoutMs = 20_000): Promise<string> {
    const offered = await this.quickFixesAt(line, column, timeoutMs);
    const chosen = offered.find((t) => title.test(t));
    if (!chosen) {
      await this.escape();
      throw new Error(
        `no quick fix matching ${title} at ${line}:${column}; offered: ${offered.join(' | ') || 'none'}`,
      );
    }
    // The menu sits under a pointer block, so choose the row with the keyboard as a user would.
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    const focused = this.page.locator('.action-widget .monaco-list-row.action.focused');
    for (let step = 0; step <= offered.length; step++) {
      const label = normalizeSpace(
        (await focused
          .first()
          .innerText()
          .catch(() => '')) ?? '',
      );
      if (label === chosen) break;
      await this.page.keyboard.press('ArrowDown');
      await focused.first().waitFor({ timeout: 5_000 });
    }
    if (normalizeSpace(await focused.first().innerText()) !== chosen)
      throw new Error(`could not focus quick fix '${chosen}'`);
    await this.page.keyboard.press('Enter');
    await rows.first().waitFor({ state: 'hidden', timeout: timeoutMs });
    return chosen;
  }

  /** Saves the active editor (File: Save) and waits until its tab no longer shows unsaved changes. */
  async save(): Promise<void> {
    await this.runCommand('File: Save');
    await this.page
      .locator('.tabs-container .tab.active.dirty')
      .waitFor({ state: 'detached', timeout: 15_000 });
  }

  /** Opens the Problems panel (Ctrl+Shift+M) and returns every entry, scrolling through the (virtual) list. */
  async problems(): Promise<ProblemEntry[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await this.page.keyboard.press('Control+Shift+M');
      await panel.waitFor({ state: 'visible', timeout: 15_000 });
    }
    const byIndex = new Map<number, RenderedRow>();
    // Rows of the list proper (the tree's sticky header repeats some rows outside it).
    const rowsSel = '.monaco-list-rows > .monaco-list-row';
    const rows = panel.locator(rowsSel);
    const scroller = panel.locator('.monaco-list').first();
    if ((await rows.count()) > 0 && (await panel.locator(`${rowsSel}[data-index="0"]`).count()) === 0) {
      await scroller.hover();
      await this.page.mouse.wheel(0, -1_000_000);
      await panel.locator(`${rowsSel}[data-index="0"]`).waitFor({ state: 'attached', timeout: 5_000 });
    }
    for (let pass = 0; pass < 200; pass++) {
      const rendered: RenderedRow[] = await rows.evaluateAll((els) =>
        els.map((el) => {
          // No named inner functions here: the test runner's transpiler would wrap them in a helper the page lacks.
          const parts = [
            '.marker-message',
            '.marker-source',
            '.marker-code',
            '.marker-line',
            '.label-name',
          ].map((sel) =>
            Array.from(el.querySelectorAll(sel))
              .map((n) => (n as HTMLElement).innerText.trim())
              .join(' '),
          );
          return {
            index: Number(el.getAttribute('data-index') ?? '-1'),
            last: el.getAttribute('data-last-element') === 'true',
            isMarker: el.querySelector('.marker-message-details-container') !== null,
            iconClass: el.querySelector('.marker-icon .codicon')?.className ?? '',
            message: parts[0] ?? '',
            source: parts[1] ?? '',
            code: parts[2] ?? '',
            where: parts[3] ?? '',
            label: parts[4] ?? '',
          };
        }),
      );
      for (const r of rendered) byIndex.set(r.index, r);
      if (rendered.length === 0 || [...byIndex.values()].some((r) => r.last)) break;
      // Scroll by less than a screen and wait for the next row to be rendered.
      const maxIndex = Math.max(-1, ...byIndex.keys());
      const box = await scroller.boundingBox();
      await scroller.hover();
      await this.page.mouse.wheel(0, Math.max(22, Math.floor((box?.height ?? 200) * 0.6)));
      await panel
        .locator(`${rowsSel}[data-index="${maxIndex + 1}"]`)
        .waitFor({ state: 'attached', timeout: 5_000 });
    }
    const out: ProblemEntry[] = [];
    let file = '';
    for (const r of [...byIndex.values()].sort((x, y) => x.index - y.index)) {
      if (!r.isMarker) {
        file = r.label;
        continue;
      }
      const where = /Ln (\d+), Col (\d+)/.exec(r.where);
      out.push({
        file,
        severity: /codicon-error/.test(r.iconClass)
          ? 'error'
          : /codicon-warning/.test(r.iconClass)
            ? 'warning'
            : /codicon-info/.test(r.iconClass)
              ? 'info'
              : 'unknown',
        message: normalizeSpace(r.message),
        source: r.source,
        code: r.code.replace(/^\(|\)$/g, ''),
        line: where ? Number(where[1]) : 0,
        column: where ? Number(where[2]) : 0,
      });
    }
    return out;
  }

  /** Waits until the Problems panel shows entries that satisfy `done`; returns the last entries read. */
  async waitForProblems(
    done: (entries: ProblemEntry[]) => boolean,
    timeoutMs = 60_000,
  ): Promise<ProblemEntry[]> {
    const deadline = Date.now() + timeoutMs;
    let last: ProblemEntry[] = [];
    while (Date.now() < deadline) {
      last = await this.problems();
      if (done(last)) return last;
      // Wait for the panel to change rather than polling blindly; bounded by the remaining time.
      const before = await this.page.locator('.markers-panel').innerText();
      await this.page
        .waitForFunction(
          (prev) => (document.querySelector('.markers-panel') as HTMLElement | null)?.innerText !== prev,
          before,
          { timeout: Math.max(1, Math.min(5_000, deadline - Date.now())) },
        )
        .catch(() => undefined);
    }
    return last;
  }

  /**
   * Starts recording every notification toast the workbench adds or removes (text, time), so a test that
   * misses one can say what the toasts did meanwhile. Returns a reader of the record.
   */
  async recordToasts(): Promise<() => Promise<string>> {
    // A string, not a function: the test runner's transform names inner functions with a helper that does
    // not exist in the page.
    await this.page.evaluate(`(() => {
      if (window.__toastLog) return;
      const log = (window.__toastLog = []);
      const t0 = Date.now();
      const texts = (n) =>
        n instanceof HTMLElement
          ? [...n.querySelectorAll('.notification-list-item-message')].map((e) => e.textContent ?? '')
          : [];
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) for (const t of texts(n)) log.push('+' + (Date.now() - t0) + 'ms ' + t);
          for (const n of r.removedNodes) for (const t of texts(n)) log.push('-' + (Date.now() - t0) + 'ms ' + t);
        }
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    return async () => ((await this.page.evaluate('(window.__toastLog ?? []).join("\\n")')) as string) ?? '';
  }

  /**
   * Waits until a notification whose message matches `text` is in VS Code's notification center, and
   * returns its text. The center keeps every notification until it is cleared; its toast may be gone: VS
   * Code hides an info toast after 15 s while the window has focus (Playwright gives every page focus), and
   * shows at most three new toasts per 800 ms. Leaves the center closed.
   */
  async waitForNotification(text: RegExp, timeoutMs = 30_000): Promise<string> {
    await this.runCommand('Notifications: Show Notifications');
    const center = this.page.locator('.notifications-center');
    try {
      const item = center.locator('.notification-list-item-message').filter({ hasText: text }).first();
      await item.waitFor({ timeout: timeoutMs });
      return normalizeSpace(await item.innerText());
    } finally {
      await this.runCommand('Notifications: Hide Notifications').catch(() =>
        this.page.keyboard.press('Escape'),
      );
      await center.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }

  /** Texts of the notification toasts now showing. */
  async notifications(): Promise<string[]> {
    return (
      await this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts()
    ).map(normalizeSpace);
  }

  /** The frame (webviews are nested iframes) that holds `selector`, once it appears. */
  async frameWith(selector: string, timeoutMs = 30_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const frame of this.page.frames()) {
        if (frame.isDetached()) continue;
        const found = await frame
          .locator(selector)
          .count()
          .catch(() => 0);
        if (found > 0) return frame;
      }
      await this.page
        .waitForEvent('frameattached', { timeout: Math.max(1, Math.min(1_000, deadline - Date.now())) })
        .catch(() => undefined);
    }
    throw new Error(
      `no frame holds '${selector}' after ${timeoutMs} ms (frames: ${this.page
        .frames()
        .map((f) => f.url())
        .join(', ')})`,
    );
  }

  /** Closes every editor (keeps suites independent). */
  async closeAllEditors(): Promise<void> {
    await this.dismissQuickInput();
    await this.runCommand('View: Close All Editors');
    await this.page
      .locator('.tabs-container .tab')
      .first()
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => undefined);
  }

  /** Saves a PNG of what the user sees into the artifacts folder; returns its path. */
  async screenshot(name: string): Promise<string> {
    const path = join(this.artifactsDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }
}

/** A regex that matches `text` exactly (whole string). */
export function exactText(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
