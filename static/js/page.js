// What the page's template gives its scripts, and the page's words: its data (one JSON element,
// #page-data, not executed, so the CSP lets it be inline) read once, numbers written in the page's
// language, and its messages filled in; and the service worker told what to keep. The game, replay
// and statistics pages share them.

const DEFAULTS = { apiRoot: '/api', messages: {} };
let data = null;

/** The page's data ({apiRoot, messages, ...}); the defaults alone (every text falls back) if the page has none readable. */
export function pageData() {
  if (!data) {
    try {
      data = { ...DEFAULTS, ...JSON.parse(document.getElementById('page-data').textContent) };
    } catch {
      data = DEFAULTS;
    }
  }
  return data;
}

/** Numbers as the page's language writes them (12 345 in Czech), or plain where that is unknown. */
export function numberFormat() {
  try {
    const nf = new Intl.NumberFormat(document.documentElement.lang || undefined);
    return (n) => nf.format(n);
  } catch {
    return (n) => String(n);
  }
}

/** `template` with each `{name}` replaced by `values[name]`; unknown names are left as they are. */
export function fill(template, values) {
  return String(template || '').replace(/\{(\w+)\}/g, (m, name) => (name in values ? values[name] : m));
}

/**
 * A part of the page loaded on first use: `load()` runs once and every call shares its promise;
 * a load that failed (the server was unreachable) runs again on the next call.
 */
export function loadOnce(load) {
  let loading = null;
  return () => (loading ??= load().catch((err) => {
    loading = null;
    throw err;
  }));
}

/** Add the stylesheet of a part loaded on first use (its URL in the page's data `styles`); resolves once it applies. */
export function loadStyle(name) {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: pageData().styles[name] });
  const loaded = new Promise((resolve, reject) => {
    link.onload = resolve;
    link.onerror = reject;
  });
  document.head.append(link);
  return loaded;
}

/** A direction as the page's language names it. */
export const directionName = (messages, direction) => (messages.directions && messages.directions[direction]) || direction;

/**
 * Once the page has loaded, register the service worker (sw.js, at the page data's `serviceWorker`)
 * and tell it this page, its files and its language: it keeps them, and its offline page in that
 * language, for a visit when the server cannot be reached.
 */
export function keepForOffline() {
  const { serviceWorker: url } = pageData();
  const { serviceWorker: workers } = navigator;
  if (!url || !workers) return;
  window.addEventListener('load', () => {
    workers.register(url)
      .then(() => workers.ready)
      .then((registration) => registration.active.postMessage({
        keep: [window.location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)],
        language: document.documentElement.lang,
      }))
      .catch((err) => console.warn('2048: no offline copy', err));
  }, { once: true });
}
