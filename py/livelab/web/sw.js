// The site's service worker. The build (py/livelab/offline.py) writes it to the site root as
// sw.js, after one line `const BUILD = {siteUrl, workbox, sitemap, language, text, precache}`:
// the address the site was built for (not read here: sitemap.xml's addresses are moved from its
// home page, see relocated), the folder of the Workbox builds, the hash of sitemap.xml with its
// addresses relative (see sitemap), the site's language and the sentences of its table that
// this worker says (see t), and every file a page can ask for with its hash.
//
// Offline: installing precaches every listed file, so after one visit every page, lab and
//   question works without a network. Workbox keys a file by URL and hash, so a new build
//   downloads only the files whose hash changed.
// Updates: no skipWaiting(). A new version waits until no page of the old one is open, so a
//   page never mixes files of two builds; the next visit gets the new one. Once active it
//   claims the open pages, which then are pages no version served: a first visit's, or one
//   loaded past the service worker (a hard reload).
// Compiled Python: the precache's copy of pyodide.asm.wasm is the file as served, passed on
//   untouched, so the browser keeps the code it compiles from it with that copy.
// Isolation: every page and worker script served here says COOP same-origin and COEP
//   require-corp, so on a host that cannot send those headers the page is cross-origin isolated
//   from its second load. Other responses pass through untouched (see needsIsolation).
// Any address: sitemap.xml's addresses are rewritten to where this worker is served, because
//   mkdocs-material's instant navigation only follows links that the sitemap lists.
// Every address of a page: a precached file is the same whatever the query, so a request is
//   answered from the precache without its query; a navigation to another path of a precached
//   page (a doubled slash, its index.html, its folder without the last slash) is redirected to
//   the page's own (canonicalPath, which the build puts in front of this file), so the page's
//   relative links, saved progress and this worker's scope are the same as there.
// Checked: every precached body is hashed before it is served (checkedBody) and compared with
//   the SHA-256 the build listed for it, because Cache Storage is writable by any script of
//   this origin: a rewritten or damaged entry is deleted and downloaded again (Workbox checks
//   that download against the same hash), put back, and served; when no good copy can be had
//   (offline), the answer is an error that names the file (unavailable), never other bytes.
//   Each served body is hashed anew: Cache Storage hands out a new Response on every match,
//   and what was verified is that Response's bytes, not the entry, which can change later.
// Under `mkdocs serve` the build writes BUILD = {retire: true} instead: pages change with each
//   save there, so that version replaces any earlier one at once, then empties its caches and
//   unregisters, and an author's reload shows the page just built.


const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};
const PRECACHE_PREFIX = "workbox-precache";

// Only documents and worker scripts need the headers: a page or worker is isolated by its own
// response, and same-origin subresources need no CORP under COEP require-corp. Every other
// response is passed on as Cache Storage or the network gave it, because a rebuilt Response
// loses what Chromium keeps with the original (the compiled WebAssembly of pyodide.asm.wasm).
const NEEDS_ISOLATION = new Set(["document", "iframe", "worker", "sharedworker"]);

/** Whether the response to this request must carry the isolation headers. */
function needsIsolation(request) {
  return request.mode === "navigate" || NEEDS_ISOLATION.has(request.destination);
}

/**
 * A new response with response's status and headers, body (already decoded, so the wire's
 * encoding and length no longer describe it and are dropped), and the headers in `set`.
 */
function rebuilt(response, body, set = {}) {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(set)) headers.set(name, value);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

// What checking costs, for tests and bench/: bodies hashed, their bytes, ms spent, and the
// files found damaged (by path). Read with the service worker's `self.livelabChecks`.
const checks = { bodies: 0, bytes: 0, ms: 0, damaged: [] };
self.livelabChecks = checks;

/** "sha256-<base64>" of bytes, as the build writes an integrity. */
async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/**
 * Whether a cached response's body is what the build listed (integrity). It hashes a clone, so
 * the response itself is served as Cache Storage gave it (see NEEDS_ISOLATION); both read one
 * stored body, which a later write to the cache does not change.
 */
async function checkedBody(response, path, integrity) {
  const started = performance.now();
  const bytes = new Uint8Array(await response.clone().arrayBuffer());
  const good = (await integrityOf(bytes)) === integrity;
  counted(started, bytes.length, good ? null : path);
  return good;
}

/** Count one body checked since `started`, and its path when it was damaged. */
function counted(started, bytes, damagedPath) {
  checks.bodies += 1;
  checks.bytes += bytes;
  checks.ms += performance.now() - started;
  if (damagedPath) checks.damaged.push(damagedPath);
}

/**
 * The sentence `key` of the site's language with each {name} filled from params: the build puts
 * the ones this worker says in BUILD.text (a worker cannot import the page's i18n.js module).
 */
function t(key, params = {}) {
  const value = BUILD.text[key];
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The sentence for a precached file that could not be served: path is from the site root. */
function unavailableSentence(path, damaged) {
  return damaged ? t("offline.file_damaged", { path }) : t("offline.file_missing", { path });
}

/**
 * The answer for a precached file that has no good copy and could not be downloaded: an error
 * that names it (a page for a page), never other bytes. A page of the site that asked for a
 * script or style sheet is told too, and shows the sentence (livelab.builder.early).
 */
async function unavailable(event, path, damaged) {
  const sentence = unavailableSentence(path, damaged);
  const headers = { "X-Livelab-Unavailable": damaged ? "damaged" : "missing" };
  const { request } = event;
  if (["script", "style", "worker"].includes(request.destination) && event.clientId) {
    const client = await self.clients.get(event.clientId);
    const message = { type: "livelab-unavailable", path, sentence };
    if (client && client.type === "window") client.postMessage(message);
  }
  if (request.mode !== "navigate" && !["document", "iframe"].includes(request.destination)) {
    return new Response(sentence, { status: 503, statusText: "Unavailable offline", headers });
  }
  const escaped = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const title = escaped(t("offline.page_title"));
  const heading = escaped(t("offline.page_heading"));
  const html =
    `<!doctype html><html lang="${escaped(BUILD.language)}"><meta charset="utf-8">` +
    `<title>${title}</title><main><h1>${heading}</h1>` +
    `<p role="alert">${escaped(sentence)}</p></main></html>`;
  headers["Content-Type"] = "text/html; charset=utf-8";
  return new Response(html, { status: 503, statusText: "Unavailable offline", headers });
}

/** The response with the isolation headers added. */
function isolate(response) {
  if (response.status === 0) return response; // opaque: its headers cannot be read or rebuilt
  return rebuilt(response, response.body, ISOLATION);
}

const LOC = /<loc>([^<]*)<\/loc>/g;

/**
 * A sitemap's xml with its addresses moved to root, as livelab.builder.serve.rewrite_sitemap
 * moves them: the shortest <loc> (the home page) is where the site was built or served; left
 * as it is when not every <loc> starts with it.
 */
function relocated(xml, root) {
  const locs = Array.from(xml.matchAll(LOC), (m) => m[1]);
  if (locs.length === 0) return xml;
  const built = locs.reduce((shortest, loc) => (loc.length < shortest.length ? loc : shortest));
  if (!locs.every((loc) => loc.startsWith(built))) return xml;
  return xml.replace(LOC, (_, loc) => `<loc>${root}${loc.slice(built.length)}</loc>`);
}

function serveTheSite() {
  importScripts(`${BUILD.workbox}workbox-sw.js`);
  workbox.setConfig({ modulePathPrefix: BUILD.workbox, debug: false });
  const { precaching, routing, strategies } = workbox;

  // Workbox downloads a file that has a revision with cache: "reload", past the browser's HTTP
  // cache. The page registers this worker only once Python is live, so it has just downloaded
  // most of these files (the 10 MB pyodide.asm.wasm among them): asking the server whether
  // that copy is current costs a 304 and no body. The integrity hash still guards the bytes.
  // A copy downloaded again because the cached one was damaged (checked, below) is asked for
  // the same way: from the server, not from what the browser's cache kept, offline included.
  const revalidate = {
    requestWillFetch: async ({ request }) => new Request(request, { cache: "no-cache" }),
  };
  // Every cached body is checked before it is used, for a page or for an install that finds
  // it cached already; a damaged one is deleted, and Workbox then downloads it again (with its
  // integrity), puts it back and serves that, or fails (then `unavailable` answers).
  const damaged = new Set(); // paths found damaged that could not be downloaded again yet
  const checked = {
    cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse }) => {
      const integrity = cachedResponse && precache.getIntegrityForCacheKey(request.url);
      if (!integrity) return cachedResponse; // sitemap.xml is checked by its own route
      const path = new URL(request.url).pathname;
      if (await checkedBody(cachedResponse, path, integrity)) return cachedResponse;
      damaged.add(path);
      await (await caches.open(cacheName)).delete(request);
      return null;
    },
    cacheDidUpdate: async ({ request }) => damaged.delete(new URL(request.url).pathname),
  };
  const precache = new precaching.PrecacheController({ plugins: [revalidate, checked] });
  precache.addToCacheList(BUILD.precache);
  self.addEventListener("install", (event) => precache.install(event));
  // Claimed pages are served from the precache from then on; a first visit's page, which
  // nothing served yet, is what the snapshot helper needs to be under.
  self.addEventListener("activate", (event) => {
    event.waitUntil(precache.activate(event).then(() => self.clients.claim()));
  });

  /**
   * sitemap.xml with every <loc> moved to this worker's scope. Its copy is checked like every
   * other file, as the build hashed it: with its addresses relative (`relocated`), since a
   * server may have moved them already (livelab.builder.serve). A damaged copy is replaced.
   */
  async function sitemap({ request, event }) {
    const key = precache.getCacheKeyForURL(SITEMAP);
    if (!BUILD.sitemap || !key) return fetch(request);
    const path = new URL(SITEMAP).pathname;
    // The xml with relative addresses when response holds what the build hashed, else null.
    const good = async (response) => {
      if (!response || !response.ok) return null;
      const started = performance.now();
      const xml = relocated(await response.clone().text(), "");
      const bytes = new TextEncoder().encode(xml);
      const same = (await integrityOf(bytes)) === BUILD.sitemap;
      counted(started, bytes.length, same ? null : path);
      return same ? xml : null;
    };
    const cache = await caches.open(precache.strategy.cacheName);
    const cached = await cache.match(key);
    let xml = await good(cached);
    if (xml === null) {
      if (cached) await cache.delete(key);
      const response = await fetch(request, { cache: "no-cache" }).catch(() => null);
      xml = await good(response);
      if (xml === null) return unavailable(event, path, Boolean(cached));
      await cache.put(key, response);
    }
    const text = relocated(xml, self.registration.scope);
    return new Response(text, { headers: { "Content-Type": "application/xml" } });
  }

  const SITEMAP = new URL("sitemap.xml", self.registration.scope).href;
  const router = new routing.Router();
  router.registerRoute(new routing.Route(({ url }) => url.href === SITEMAP, sitemap));
  router.registerRoute(new precaching.PrecacheRoute(precache));
  router.setDefaultHandler(new strategies.NetworkOnly());

  /**
   * The address of the precached file that answers request, or null: its path as canonicalPath
   * makes it (plus a last slash for a navigation to a page's folder), without query or hash.
   */
  function precachedAddress(request) {
    const url = new URL(request.url);
    url.search = url.hash = "";
    url.pathname = canonicalPath(url.pathname);
    if (precache.getCacheKeyForURL(url.href)) return url;
    if (request.mode !== "navigate" || url.pathname.endsWith("/")) return null;
    url.pathname += "/";
    return precache.getCacheKeyForURL(url.href) ? url : null;
  }

  self.addEventListener("fetch", (event) => {
    let { request } = event;
    const url = new URL(request.url);
    if (request.method !== "GET" || url.origin !== self.location.origin) return;
    const found = precachedAddress(request);
    if (found && request.mode === "navigate" && found.pathname !== url.pathname) {
      found.search = url.search; // the browser keeps the #fragment across a redirect
      event.respondWith(Response.redirect(found.href, 302));
      return;
    }
    if (found && found.href !== request.url) {
      const { credentials, headers } = request; // a navigation's mode cannot be copied
      request = new Request(found.href, { credentials, headers });
    }
    let response = router.handleRequest({ event, request });
    if (!response) return;
    // A precached file with no good copy that could not be downloaded: an error naming it.
    const path = found?.pathname;
    if (found) response = response.catch(() => unavailable(event, path, damaged.has(path)));
    event.respondWith(needsIsolation(event.request) ? response.then(isolate) : response);
  });
}

async function retire() {
  for (const name of await caches.keys()) if (name.startsWith(PRECACHE_PREFIX)) await caches.delete(name);
  await self.registration.unregister();
}

if (BUILD.retire) {
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(retire()));
} else {
  serveTheSite();
}
