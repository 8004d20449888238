// The site's service worker. The build (py/livelab/offline.py) writes it to the site root as
// sw.js, after one line `const BUILD = {siteUrl, workbox, precache}`: the address the site was
// built for, the folder of the Workbox builds, and every file a page can ask for with its hash.
//
// Offline: installing precaches every listed file, so after one visit every page, lab and
//   question works without a network. Workbox keys a file by URL and hash, so a new build
//   downloads only the files whose hash changed.
// Updates: no skipWaiting(). A new version waits until no page of the old one is open, so a
//   page never mixes files of two builds; the next visit gets the new one. Once active it
//   claims the open pages, which then are pages no version served: a first visit's, or one
//   loaded past the service worker (a hard reload).
// Compiled Python: Chromium keeps the code compiled from the precache's copy of
//   pyodide.asm.wasm with that copy; the first visit's warm-up worker makes it (ownCopy).
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
// Under `mkdocs serve` the build writes BUILD = {retire: true} instead: pages change with each
//   save there, so that version replaces any earlier one at once, then empties its caches and
//   unregisters, and an author's reload shows the page just built.


const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};
const PRECACHE_PREFIX = "workbox-precache";
// An empty custom section named "livelab-precache": id 0, its size, the name's length, the name.
const MARK_NAME = new TextEncoder().encode("livelab-precache");
const MARK = new Uint8Array([0, MARK_NAME.length + 1, MARK_NAME.length, ...MARK_NAME]);

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

/** The response with the isolation headers added. */
function isolate(response) {
  if (response.status === 0) return response; // opaque: its headers cannot be read or rebuilt
  return rebuilt(response, response.body, ISOLATION);
}

function serveTheSite() {
  importScripts(`${BUILD.workbox}workbox-sw.js`);
  workbox.setConfig({ modulePathPrefix: BUILD.workbox, debug: false });
  const { precaching, routing, strategies } = workbox;

  // Workbox downloads a file that has a revision with cache: "reload", past the browser's HTTP
  // cache. The page registers this worker only once Python is live, so it has just downloaded
  // most of these files (the 10 MB pyodide.asm.wasm among them): asking the server whether
  // that copy is current costs a 304 and no body. The integrity hash still guards the bytes.
  const revalidate = {
    requestWillFetch: async ({ request, event }) =>
      event && event.type === "install" ? new Request(request, { cache: "no-cache" }) : request,
  };
  // The precache's copy of pyodide.asm.wasm ends in the custom section MARK, which changes no
  // code. Chromium compiles a module once per process and shares it by its bytes: without
  // MARK, the warm-up worker that the first visit starts once this worker controls the page
  // (runtime/snapshot-helper.js) would get the compiled module of the page's own worker, which
  // came over HTTP, and nothing would be stored with this copy. With MARK, the warm-up
  // compiles this copy itself (the snapshot helper before it compiles other bytes again,
  // runtime/start.js), Chromium stores that compiled code with it, and the first reload
  // starts from it instead of compiling the 10 MB afresh.
  const ownCopy = {
    cacheWillUpdate: async ({ request, response }) => {
      if (!response || response.status >= 400) return null; // as Workbox's own check
      if (!request.url.endsWith("/pyodide.asm.wasm")) return response;
      const body = new Blob([await response.arrayBuffer(), MARK], { type: "application/wasm" });
      return rebuilt(response, body);
    },
  };
  const precache = new precaching.PrecacheController({ plugins: [revalidate, ownCopy] });
  precache.addToCacheList(BUILD.precache);
  self.addEventListener("install", (event) => precache.install(event));
  // Claimed pages are served from the precache from then on; a first visit's page, which
  // nothing served yet, is what the snapshot helper needs to be under.
  self.addEventListener("activate", (event) => {
    event.waitUntil(precache.activate(event).then(() => self.clients.claim()));
  });

  /** sitemap.xml with every <loc> moved from the address of the build to this worker's scope. */
  async function sitemap({ request }) {
    const response = (await precache.matchPrecache("sitemap.xml")) || (await fetch(request));
    let text = await response.text();
    if (BUILD.siteUrl) text = text.replaceAll(`<loc>${BUILD.siteUrl}`, `<loc>${self.registration.scope}`);
    return new Response(text, { status: response.status, headers: { "Content-Type": "application/xml" } });
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
    const response = router.handleRequest({ event, request });
    if (response) {
      event.respondWith(needsIsolation(event.request) ? response.then(isolate) : response);
    }
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
