// Starting the helper worker that makes and stores the memory snapshot (snapshot-worker.js),
// for the client, once a boot that had none is live and the page is idle.
//
// On a first visit the helper waits until the service worker controls the page (offline.js
// registers it when Python is live, and it claims the page once it is active), for at most
// CONTROL_WAIT_MS: the helper then gets the service worker's copy of pyodide.asm.wasm, and
// Chromium stores the code it compiles from that copy with it, where the next page load finds
// it (sw.js says why the helper compiles that copy itself).

const HELPER_URL = new URL("./snapshot-worker.js", import.meta.url);
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
