// Starting the helper worker that makes and stores the memory snapshot (snapshot-worker.js),
// for the client, once a boot that had none is live and the page is idle; then, in Chromium,
// the warm-up worker (warm-worker.js).
//
// On a first visit the helper waits until the service worker controls the page (offline.js
// registers it when Python is live, and it claims the page once it is active), for at most
// CONTROL_WAIT_MS: the warm-up after it then gets the service worker's copy of
// pyodide.asm.wasm, and Chromium stores the code it compiles from that copy with it, where
// the next page load finds it (sw.js says why that copy is the warm-up's own).

import { CHROMIUM } from "./engine.js";

const HELPER_URL = new URL("./snapshot-worker.js", import.meta.url);
const WARM_URL = new URL("./warm-worker.js", import.meta.url);
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
 * Once `ready` resolves and the page is next idle, start the helper; resolves to what it
 * reported, {bytes, stored, ms} or {error}. `started()` is called when it starts.
 */
export function runSnapshotHelper(ready, started) {
  const idle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));
  return new Promise((resolve) => {
    const start = () => {
      started();
      const helper = new Worker(HELPER_URL, { type: "module", name: "livelab-snapshot" });
      const end = (result) => {
        clearTimeout(timer);
        helper.terminate();
        resolve(result);
      };
      const late = () => end({ error: "the snapshot was not made in time" });
      const timer = setTimeout(late, GIVE_UP_MS);
      helper.onmessage = ({ data: { error, bytes, stored, ms } }) =>
        end(error ? { error } : { bytes, stored, ms });
      helper.onerror = (event) => {
        event.preventDefault();
        end({ error: event.message || "the snapshot worker did not load" });
      };
    };
    const later = () => idle(start, { timeout: 2_000 });
    ready.then(later, later);
  });
}

/**
 * In Chromium (the one engine that keeps compiled WebAssembly with a file), boot Python once
 * more as a reload does, in a worker of its own (warm-worker.js), run one request there and
 * end it (see WARM_WAIT_MS); resolves to {ms} (from start to end) or {error}. Elsewhere
 * resolves to {skipped: true} at once.
 */
export function runWarmup() {
  if (!CHROMIUM) return Promise.resolve({ skipped: true });
  const started = performance.now();
  return new Promise((resolve) => {
    const worker = new Worker(WARM_URL, { type: "module", name: "livelab-warm-up" });
    const end = (result) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => end({ error: "the warm-up did not finish in time" }), GIVE_UP_MS);
    const done = () => end({ ms: Math.round(performance.now() - started) });
    const run = () => worker.postMessage({ id: 1, type: "run", code: "pass" });
    worker.onmessage = ({ data }) => {
      if (data.type === "boot-error") end({ error: data.message });
      else if (data.type === "ready") setTimeout(run, WARM_WAIT_MS);
      else if (data.id === 1 && (data.type === "result" || data.type === "error")) {
        setTimeout(done, WARM_END_MS);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      end({ error: event.message || "the warm-up worker did not load" });
    };
  });
}
