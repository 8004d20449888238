// The boot report (runtime/page/report.js) and the plan's steps it is read against
// (runtime/shared/boot-plan.js): what a boot's phases say about each step, and when the
// work a first visit starts counts as settled.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PLAN, stepsOf } from "../../py/livelab/web/runtime/shared/boot-plan.js";
import { bootReport, interpreters, started } from "../../py/livelab/web/runtime/page/report.js";

const FIRST_VISIT = { snapshot: "deferred", wheel: "network", wheelThread: "helper", pycs: 310,
  pycsFrom: "build", pyodide: 900, numpy: 1200, livelab: 1400 };
const RELOAD = { snapshot: "restored", wheel: "stored", pycs: 310, pycsFrom: "stored",
  snapshotRead: 120, pyodide: 300, numpy: 380, livelab: 450 };

test("every step names its sources, best first, each with what it is", () => {
  assert.deepEqual(PLAN.map((s) => s.step), ["interpreter", "numpy", "bytecode", "package"]);
  for (const { sources } of PLAN) {
    for (const [name, what] of Object.entries(sources)) assert.ok(what.length > 10, name);
  }
});

test("each step comes from a source its plan names", () => {
  const phaseSets = [FIRST_VISIT, RELOAD, { snapshot: "none", wheel: "network", numpyBy: "loadPackage", pycs: 0 }];
  for (const phases of phaseSets) {
    const steps = stepsOf(phases);
    for (const { step, sources } of PLAN) assert.ok(steps[step].from in sources, step);
  }
});

test("a first visit: a fresh interpreter, the wheel, the build's bytecode", () => {
  assert.deepEqual(stepsOf(FIRST_VISIT), {
    interpreter: { from: "fresh", why: "no snapshot stored yet: a helper makes one" },
    numpy: { from: "wheel", via: "network", thread: "helper" },
    bytecode: { from: "build", files: 310 },
    package: { from: "archive" },
  });
});

test("NumPy through loadPackage is said so, whatever the wheel's download did", () => {
  const steps = stepsOf({ snapshot: "none", wheel: "network", numpyBy: "loadPackage", pycs: 0 });
  assert.deepEqual(steps.numpy, { from: "loadPackage" });
});

test("a source that gave way says why", () => {
  const steps = stepsOf({
    snapshot: "deferred", snapshotError: "hash mismatch", wheel: "cache",
    numpyError: "damaged", pycs: 0, pycError: "hash mismatch",
  });
  assert.deepEqual(steps.interpreter, { from: "fresh", why: "hash mismatch" });
  assert.equal(steps.numpy.why, "damaged");
  assert.deepEqual(steps.bytecode, { from: "compile", files: 0, why: "hash mismatch" });
});

/** A stand-in for the page's main client (client.js) at some point of a visit. */
function client(fields) {
  return { state: "ready", message: "", startedAt: 5, readyAt: 1500, bootMs: 1495, ...fields };
}

test("a first visit settles once the snapshot, .pyc files and NumPy files are stored", () => {
  globalThis.caches = {}; // a browser with Cache Storage
  try {
    const phases = { ...FIRST_VISIT, pycs: 0, pycsFrom: undefined };
    let report = bootReport(client({ bootPhases: phases }));
    assert.equal(report.settled, false);
    assert.deepEqual(report.later, { snapshot: null, pycs: null, numpy: null });
    assert.deepEqual(report.marks, { pyodide: 900, numpy: 1200, livelab: 1400 });
    const done = { snapshotStore: { bytes: 1, stored: 1, ms: 9 }, pycStore: { files: 3 } };
    report = bootReport(client({ bootPhases: phases, ...done }));
    assert.equal(report.settled, false); // NumPy's files are still being stored
    report = bootReport(client({ bootPhases: phases, ...done, numpyStore: { bytes: 2 } }));
    assert.equal(report.settled, true);
  } finally {
    delete globalThis.caches;
  }
});

test("a reload that used what was stored leaves nothing for later", () => {
  globalThis.caches = {};
  try {
    const report = bootReport(client({ bootPhases: RELOAD }));
    const skipped = { skipped: true };
    assert.deepEqual(report.later, { snapshot: skipped, pycs: skipped, numpy: skipped });
    assert.equal(report.settled, true);
    assert.equal(report.steps.interpreter.from, "snapshot");
  } finally {
    delete globalThis.caches;
  }
});

test("a failed helper ends the wait, and says why", () => {
  globalThis.caches = {};
  try {
    const report = bootReport(client({ bootPhases: { ...FIRST_VISIT },
      snapshotStore: { error: "no makeMemorySnapshot" }, numpyStore: { bytes: 1 } }));
    assert.deepEqual(report.later.snapshot, { error: "no makeMemorySnapshot" });
    assert.equal(report.settled, true);
  } finally {
    delete globalThis.caches;
  }
});

test("a boot still starting, or failed, is not settled and has no steps", () => {
  const starting = bootReport(client({ state: "starting", readyAt: undefined,
    progress: { phase: "download", loaded: 10, total: 100 } }));
  assert.equal(starting.settled, false);
  assert.equal(starting.steps, null);
  assert.deepEqual(starting.progress, { phase: "download", loaded: 10, total: 100 });
  const failed = bootReport(client({ state: "failed", message: "Python could not start",
    bootDetail: "404" }));
  assert.equal(failed.detail, "404");
  assert.equal(failed.settled, false);
});

test("every interpreter the tab starts is listed in order, by role", () => {
  const before = interpreters.length;
  started("main");
  started("snapshot");
  const report = bootReport(client({ bootPhases: RELOAD }));
  assert.deepEqual(report.interpreters.slice(before).map((i) => i.role), ["main", "snapshot"]);
});
