// The boot report: one plain object that says how this tab's Python started and what it did
// afterwards, read by the page's loading line, by bench/ and by the tests (through
// runtime.report(), client.js), so none of them reads the runtime's internals.
//
//   state, message, detail  the main worker's state ("starting", "ready", "failed"), the
//                           page's sentence, and what exactly failed (a boot error's detail)
//   progress                {phase, loaded, total} while it starts (the loading line's)
//   startedAt, readyAt      ms after navigation start: the worker created, the boot live
//   bootMs                  the worker's own count, from its start to live
//   steps                   where each step of the boot plan came from (shared/boot-plan.js)
//   marks                   ms after the worker started: manifest, snapshotRead, pyodide,
//                           unzipped, downloaded, numpy, livelab
//   later                   the work a first visit leaves for afterwards, each null until done:
//                           snapshot {bytes, stored, ms} (the helper worker), pycs {files,
//                           bytes, ms}, numpy {bytes, ms}; {error} when it failed,
//                           {skipped: true} when it does not apply
//   interpreters            every Python interpreter this tab started, in order: {role, at}
//                           (role: "main", "snapshot", "scratch", "runner")
//   settled                 the boot is live and nothing it started is still running

import { stepsOf } from "../shared/boot-plan.js";

/** Every interpreter this tab started (all clients and helpers): {role, at}. */
export const interpreters = [];

/** Note an interpreter's start. */
export function started(role) {
  interpreters.push({ role, at: Math.round(performance.now()) });
}

/** Keep what a worker reported it stored after its boot: .pyc files or NumPy's files. */
export function noteStored(runtime, { type, files, bytes, ms, error }) {
  if (type === "pycs-stored") runtime.pycStore = error ? { error } : { files, bytes, ms };
  else runtime.numpyStore = error ? { error } : { bytes, ms };
}

/** Which later work this boot leaves, by its phases: true where it is still to come. */
function laterWork(phases, hasCaches) {
  return {
    snapshot: phases.snapshot === "deferred",
    pycs: hasCaches && !(phases.pycs > 0),
    numpy:
      hasCaches && phases.numpyBy !== "loadPackage" && ![undefined, "stored"].includes(phases.wheel),
  };
}

/** The report of `runtime`, the page's main client (client.js). */
export function bootReport(runtime) {
  const phases = runtime.bootPhases ?? {};
  const marks = Object.fromEntries(
    Object.entries(phases).filter(([, value]) => typeof value === "number" && value > 0),
  );
  delete marks.pycs; // a count, not a time
  const expected = laterWork(phases, Boolean(globalThis.caches));
  const later = {
    snapshot: expected.snapshot ? (runtime.snapshotStore ?? null) : { skipped: true },
    pycs: expected.pycs ? (runtime.pycStore ?? null) : { skipped: true },
    numpy: expected.numpy ? (runtime.numpyStore ?? null) : { skipped: true },
  };
  return {
    state: runtime.state,
    message: runtime.message,
    detail: runtime.bootDetail ?? null,
    progress: runtime.progress ?? null,
    startedAt: runtime.startedAt ?? null,
    readyAt: runtime.readyAt ?? null,
    bootMs: runtime.bootMs,
    steps: runtime.bootPhases ? stepsOf(phases) : null,
    marks,
    later,
    interpreters: interpreters.map((entry) => ({ ...entry })),
    settled:
      Boolean(runtime.bootPhases) &&
      runtime.state === "ready" &&
      Object.values(later).every((v) => v !== null),
  };
}
