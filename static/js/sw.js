// The service worker: the game page and its files for a player whose server cannot be reached.
// Pages come from the network when it answers (and are kept), else from what was kept, else the
// app's offline page (kept in the language of the page that last wrote to this worker); the
// fingerprinted static files come from what was kept (under its URL a file never changes); /api
// never: the game is the server's, and the page says when the server cannot be reached.
// Served at the app's root (pages.py) so that its scope is every page.

const CACHE = 'game2048';
const ROOT = new URL(self.registration.scope).pathname;
const ours = (url) => url.origin === self.location.origin;
const isStatic = (url) => ours(url) && url.pathname.startsWith(`${ROOT}static/`) && url.searchParams.has('v');
const OFFLINE = `${ROOT}offline`;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The offline page in `language`: fetched again only when the one kept is in another. */
async function keepOfflinePage(cache, language) {
  const kept = await cache.match(OFFLINE);
  if (!kept || kept.headers.get('Content-Language') !== language) await cache.add(OFFLINE);
}

// A page names itself, its files and its language (page.js's keepForOffline): the game page and the
// files are kept (a page loaded before this worker ran was not), and the offline page in that language.
self.addEventListener('message', (event) => event.waitUntil(caches.open(CACHE).then((cache) => Promise.all([
  keepOfflinePage(cache, event.data.language),
  ...event.data.keep.map((href) => new URL(href))
    .filter((url) => isStatic(url) || url.pathname === ROOT)
    .map(async (url) => (await cache.match(url)) || cache.add(url)),
]))));

/**
 * The network's answer to `request`, kept when it is a good one. Its body is read whole before it
 * replaces the copy kept: a server going down mid-answer fails the fetch, and the copy stays.
 */
async function fetchAndKeep(cache, request) {
  const response = await fetch(request);
  if (response.ok) {
    const { status, statusText, headers } = response;
    await cache.put(request, new Response(await response.clone().blob(), { status, statusText, headers }));
  }
  return response;
}

const keptFirst = (cache, request) => cache.match(request).then((kept) => kept || fetchAndKeep(cache, request));
// Offline, any copy kept of the page is better than none: its Vary (the language, the cookie) is not
// asked to match, nor its query.
const KEPT_PAGE = { ignoreSearch: true, ignoreVary: true };
const networkFirst = (cache, request) => fetchAndKeep(cache, request)
  .catch(async (err) => (await cache.match(request, KEPT_PAGE)) || (await cache.match(OFFLINE)) || Promise.reject(err));

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !ours(url) || url.pathname.startsWith(`${ROOT}api/`)) return;
  const answer = isStatic(url) ? keptFirst : request.mode === 'navigate' ? networkFirst : null;
  if (answer) event.respondWith(caches.open(CACHE).then((cache) => answer(cache, request)));
});
