// A first visit's background work waits for a quiet moment: the service worker's install
// (offline.js), which downloads and hashes every file of the site, and the snapshot helper
// (snapshot-helper.js), which boots a second interpreter. Both used to start as soon as Python
// was live, so a student who followed a link right after the first lab view waited for them:
// on two cores, the new page's input was answered 0.35 s after the click instead of 0.2 s
// (bench/startup.py, "link -> a new input's result, right after a first visit").
//
// Quiet: QUIET_MS with no click, key press or touch (a link's click is one, so a page change
// starts the wait again), counted from the moment the work was asked for at the earliest (so
// the first lab views, which Python draws just after it is live, come first); then the
// browser's next idle time. Scrolling and reading do not hold the work back.

export const QUIET_MS = 1_500;
const IDLE_TIMEOUT_MS = 2_000;

let lastInput = 0;
const noteInput = () => (lastInput = performance.now());
for (const type of ["pointerdown", "keydown", "click"]) {
  globalThis.addEventListener?.(type, noteInput, { capture: true, passive: true });
}

/** Call run() once the page has been quiet for QUIET_MS, at its next idle time. */
export function whenQuiet(run) {
  const idle = globalThis.requestIdleCallback ?? ((work) => setTimeout(work, 0));
  const asked = performance.now();
  const check = () => {
    const wait = Math.max(lastInput, asked) + QUIET_MS - performance.now();
    if (wait > 0) setTimeout(check, wait);
    else idle(run, { timeout: IDLE_TIMEOUT_MS });
  };
  check();
}
