/** Tiny DOM helpers: build elements without innerHTML (nothing from the engine is parsed as markup). */
import { errorInfoOf } from './transport';

type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;
export type Child = Node | string | null | undefined | false;

/** Creates an element with attributes (on* keys become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'className') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A table: a header row of these column titles (none: no header), then the body rows. */
export function table(attrs: Attrs, columns: HTMLElement[] | null, rows: HTMLElement[]): HTMLElement {
  return h('table', attrs, columns && h('thead', {}, h('tr', {}, ...columns)), h('tbody', {}, ...rows));
}

/** A dashboard panel: a section labelled by its heading (`NAME-title`), class `panel NAME`. */
export function panel(name: string, title: string, ...children: Child[]): HTMLElement {
  const id = `${name}-title`;
  return h(
    'section',
    { className: `panel ${name}`, 'aria-labelledby': id },
    h('h2', { id }, title),
    ...children,
  );
}

/** Replaces an element's children. */
export function setChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren(
    ...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false),
  );
}

/** Reads a CSS custom property (theme colours come from --vscode-* variables through styles.css). */
export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/**
 * An amount with its unit that never breaks across lines: a no-break space between number and unit, and
 * `white-space: nowrap` on the element (styles.css `.amount`).
 */
export function amount(text: string, unit: string): HTMLElement {
  const el = document.createElement('span');
  el.className = 'amount';
  el.textContent = unit ? `${text}\u00a0${unit}` : text;
  return el;
}

/** Shows in `el` an error with what to do and a Retry button (the end of every failed load). */
export function showError(el: Element, e: unknown, retry: () => void): void {
  const info = errorInfoOf(e);
  setChildren(
    el,
    h(
      'div',
      { className: 'error-box', role: 'alert', 'data-testid': 'error', 'data-code': info.code },
      h('p', { className: 'error' }, info.message),
      h('p', {}, info.action),
      h('button', { type: 'button', onclick: retry }, 'Retry'),
    ),
  );
}
