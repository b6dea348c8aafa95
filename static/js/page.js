// What the page's template gives its scripts: one JSON element, #page-data (not executed, so the
// CSP lets it be inline), read once.

const DEFAULTS = { apiRoot: '/api', messages: {} };
let data = null;

/** The page's data ({apiRoot, messages, ...}); the defaults alone if the page has none readable. */
export function pageData() {
  if (!data) {
    try {
      data = { ...DEFAULTS, ...JSON.parse(document.getElementById('page-data').textContent) };
    } catch {
      data = DEFAULTS; // every text falls back
    }
  }
  return data;
}
