// The site's service worker. The build (py/livelab/offline.py) writes it to the site root as
// sw.js, after one line `const BUILD = {siteUrl, workbox, precache}`: the address the site was
// built for, the folder of the Workbox builds, and every file a page can ask for with its hash.
//
// Offline: installing precaches every listed file, so after one visit every page, lab and
//   question works without a network. Workbox keys a file by URL and hash, so a new build
//   downloads only the files whose hash changed.
// Updates: no skipWaiting() and no clients.claim(). A new version waits until no page of the
//   old one is open, so a page never mixes files of two builds; the next visit gets the new one.
// Isolation: every page and worker script served here says COOP same-origin and COEP
//   require-corp, so on a host that cannot send those headers the page is cross-origin isolated
//   from its second load. Other responses pass through untouched (see needsIsolation).
// Any address: sitemap.xml's addresses are rewritten to where this worker is served, because
//   mkdocs-material's instant navigation only follows links that the sitemap lists.
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

/** The response with the isolation headers added. */
function isolate(response) {
  if (response.status === 0) return response; // opaque: its headers cannot be read or rebuilt
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
  // The body is already decoded here, so the wire's encoding and length no longer describe it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
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
  const precache = new precaching.PrecacheController({ plugins: [revalidate] });
  precache.addToCacheList(BUILD.precache);
  self.addEventListener("install", (event) => precache.install(event));
  self.addEventListener("activate", (event) => precache.activate(event));

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

  self.addEventListener("fetch", (event) => {
    const { request } = event;
    if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
    const response = router.handleRequest({ event, request });
    if (response) event.respondWith(needsIsolation(request) ? response.then(isolate) : response);
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
