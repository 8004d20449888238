// What a worker that runs student code may not reach. Python in Pyodide can run any
// JavaScript of its worker (pyodide.code.run_js, the js module), so whatever that worker's
// global scope offers, student code has. The worker that runs a check or the scratchpad is
// therefore left, once booted and before any student code, without the origin's storage
// (Cache Storage, where the service worker keeps the site and the Python store; IndexedDB;
// the origin's file system; locks), without a way to start another worker (which would get
// all of that back), and without channels to the site's other tabs and service worker. A
// runner (one check, then ended) also loses the network, so a blank cannot download the
// course's code to call its reference.
//
// Each name is deleted wherever it is defined on the global object's prototype chain (Web
// IDL defines a global's members on the object itself, but engines differ), then looked up
// again: a name still there means this engine offers it some other way, and the worker
// refuses to run student code (strip throws) rather than run it with that in reach.

const STORAGE = [
  "caches", "CacheStorage", "indexedDB", "IDBFactory", "Worker", "SharedWorker",
  "BroadcastChannel", "requestFileSystem", "webkitRequestFileSystem",
  "requestFileSystemSync", "webkitRequestFileSystemSync", "cookieStore",
];
const NAVIGATOR = ["storage", "locks", "serviceWorker", "storageBuckets"];
const NETWORK = ["fetch", "XMLHttpRequest", "WebSocket", "WebTransport", "EventSource", "importScripts"];

/** Delete `name` from `target` and every object on its prototype chain that defines it. */
function remove(target, name) {
  for (let obj = target; obj; obj = Object.getPrototypeOf(obj)) {
    if (Object.prototype.hasOwnProperty.call(obj, name)) delete obj[name];
  }
  return !(name in target);
}

/**
 * Take storage, workers and channels (and, with network false, the network) out of this
 * worker's reach. Returns the names removed; throws when one of them cannot be removed.
 */
export function strip({ network }) {
  const removed = [];
  const left = [];
  const names = network ? STORAGE : [...STORAGE, ...NETWORK];
  for (const name of names) {
    if (!(name in globalThis)) continue;
    (remove(globalThis, name) ? removed : left).push(name);
  }
  const nav = globalThis.navigator;
  for (const name of NAVIGATOR) {
    if (!nav || !(name in nav)) continue;
    (remove(nav, name) ? removed : left).push(`navigator.${name}`);
  }
  if (left.length) throw new Error(`this browser keeps ${left.join(", ")} in reach of student code`);
  return removed;
}
