// Starting the helper worker that makes and stores the memory snapshot (snapshot-worker.js),
// for the client, once a boot that had none is live and the page is idle; then, in Chromium,
// the warm-up worker (warm-worker.js).
//
// On a first visit the helper waits until the service worker controls the page (offline.js
// registers it when Python is live, and it claims the page once it is active), for at most
// CONTROL_WAIT_MS: the warm-up after it then gets the service worker's copy of
// pyodide.asm.wasm, and Chromium stores the code it compiles from that copy with it, where
// the next page load finds it (sw.js says why that copy is the warm-up's own).

import { KEEPS_COMPILED_WASM } from "../shared/engine.js";

const HELPER_URL = new URL("../helper/snapshot-worker.js", import.meta.url);
const WARM_URL = new URL("../helper/warm-worker.js", import.meta.url);
// Chromium takes a module's compiled code when 1 MB of optimized code has piled up, or when
// code is optimized 2 s or more after the first (V8's wasm caching flags): an idle worker
// never gets there. So the warm-up worker, once ready, waits WARM_WAIT_MS for the boot's own
// optimizing to end, then runs one request (its first student-code request warms up every
// lab and question, livelab.worker_api.clean_state), and is ended WARM_END_MS after it.
const WARM_WAIT_MS = 2_500;
const WARM_END_MS = 1_000;
const GIVE_UP_MS = 120_000; // a helper that never reports is ended (no snapshot)
export const CONTROL_WAIT_MS = 15_000;

/**
 * Resolves once this page is under the service worker of `registering` (the promise
 * navigator.serviceWorker.register gave), or once it will not be soon: the registration or
 * the install failed, there is no registration (Playwright's blocking gives none), no new
 * version is installing (an older one, which does not claim, is active), or CONTROL_WAIT_MS
 * passed. It never rejects.
 */
export function underServiceWorker(registering) {
  const container = navigator.serviceWorker;
  const claimed = (registration) =>
    new Promise((resolve) => {
      const worker = registration?.installing ?? registration?.waiting;
      const check = () => {
        const over = !worker || ["activated", "redundant"].includes(worker.state);
        if (container.controller || over) resolve();
      };
      worker?.addEventListener("statechange", check);
      container.addEventListener("controllerchange", check);
      check();
    });
  const settled = registering.then(claimed).catch(() => {});
  return Promise.race([settled, new Promise((resolve) => setTimeout(resolve, CONTROL_WAIT_MS))]);
}

/**
 * Start a module worker that ends once: listen(data, end, worker) hears its messages, and
 * end(result) terminates it and resolves to result. It also ends with {error} when its script
 * does not load, or after GIVE_UP_MS (`late` is that error).
 */
function oneShotWorker({ url, name, what, late }, listen) {
  return new Promise((resolve) => {
    const worker = new Worker(url, { type: "module", name });
    const end = (result) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => end({ error: late }), GIVE_UP_MS);
    worker.onmessage = ({ data }) => listen(data, end, worker);
    worker.onerror = (event) => {
      event.preventDefault();
      end({ error: event.message || `${what} did not load` });
    };
  });
}

/**
 * Once `ready` resolves and the page is next idle, start the helper; resolves to what it
 * reported, {bytes, stored, ms} or {error}. `started()` is called when it starts.
 */
export function runSnapshotHelper(ready, started) {
  const idle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));
  const helper = {
    url: HELPER_URL,
    name: "livelab-snapshot",
    what: "the snapshot worker",
    late: "the snapshot was not made in time",
  };
  return new Promise((resolve) => {
    const start = () => {
      started();
      const report = ({ error, bytes, stored, ms }, end) =>
        end(error ? { error } : { bytes, stored, ms });
      oneShotWorker(helper, report).then(resolve);
    };
    const later = () => idle(start, { timeout: 2_000 });
    ready.then(later, later);
  });
}

/**
 * In Chromium (the one engine that keeps compiled WebAssembly with a file), boot Python once
 * more as a reload does, in a worker of its own (warm-worker.js), run one request there and
 * end it (see WARM_WAIT_MS); resolves to {ms} (from start to end) or {error}. Elsewhere
 * resolves to {skipped: true} at once. onStart() is called when the worker starts.
 */
export function runWarmup(onStart = () => {}) {
  if (!KEEPS_COMPILED_WASM) return Promise.resolve({ skipped: true });
  onStart();
  const started = performance.now();
  const warmUp = {
    url: WARM_URL,
    name: "livelab-warm-up",
    what: "the warm-up worker",
    late: "the warm-up did not finish in time",
  };
  return oneShotWorker(warmUp, (data, end, worker) => {
    const run = () => worker.postMessage({ id: 1, type: "run", code: "pass" });
    const done = () => end({ ms: Math.round(performance.now() - started) });
    if (data.type === "boot-error") end({ error: data.message });
    else if (data.type === "ready") setTimeout(run, WARM_WAIT_MS);
    else if (data.id === 1 && (data.type === "result" || data.type === "error")) {
      setTimeout(done, WARM_END_MS);
    }
  });
}
