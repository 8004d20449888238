// The page's side of the Python runtime: three clients of one class, created when this module
// is first imported (that is, on the first page load) and kept across instant navigation,
// because modules are evaluated once per tab. `runtime`, the page's main worker, starts at
// once: it draws the labs and grades checks, and never runs student code. `scratchRuntime`
// runs the scratchpad; `runner` runs a code question's blank, a fresh worker for each
// (checks.js). Those two start when first needed (worker.js says what each role may do).
//
// Requests wait until the worker is ready and go to it one at a time, so the client always
// knows which request is running and can stop exactly that one (stopping.js: through the
// interrupt buffer when the page is cross-origin isolated, else by respawning the worker).
//
// A reply may say the worker must be replaced (student code changed Python's own modules,
// or its memory grew too large): the request is answered first, with a note that says so,
// then a fresh worker starts and the waiting requests go to it. runtime.message is a full
// sentence that says what failed and what to do; the page shows it before its Retry button.
//
// Start-up: the worker reports progress {phase, loaded, total} (bytes, while its large files
// download), re-dispatched here as "progress" events and kept as runtime.progress. A boot
// fails only when it stalls: nothing arrived and no phase advanced for STALL_MS, so a slow
// link that still delivers never times out. Files already downloaded stay in the browser's
// cache, so Retry does not download them again.
//
// The first worker of a tab is usually started by an inline script at the top of the page
// (livelab.builder.early), before this module runs; it is adopted with the messages it sent.
//
// Snapshot: a boot that found no memory snapshot to restore says so (bootPhases.snapshot is
// "deferred"); once it is live and no request waits, a helper worker (snapshot-worker.js)
// makes and stores one for the next page load, then ends. One helper per tab at most
// (snapshot-helper.js).

import { adoptEarlyWorker } from "./early.js";
import { nextIndex } from "./next-request.js";
import { bootReport, noteStored, started as noteInterpreter } from "./report.js";
import { makeSnapshot } from "./snapshot-helper.js";
import { stopping } from "./stopping.js";
import { refusedOf } from "../shared/downloads.js";
import { RuntimeError, WORKER_FAILED, explainStop, refusedMessage, stall } from "../shared/stops.js";

export { RuntimeError, STALL_MS, WORK_STALL_MS } from "../shared/stops.js";

const WORKER_URL = new URL("../worker/worker.js", import.meta.url);
// After Python reports the stop, the state check that follows may take this long.
const CHECK_GRACE_MS = 30_000;
const WARM_UP_GRACE_MS = 30_000;
const LOADING_GRACE_MS = 120_000; // a course's extra packages, downloaded and imported once
export const DEFAULT_TIMEOUT_MS = 5_000;

class Runtime extends EventTarget {
  /**
   * role: "main" for the page's own worker, started now (adopted from the page's inline
   * script when that started it), the one that has the snapshot made; another role
   * ("scratch", "runner") is named in the worker's URL as #<role>, which worker.js reads, and
   * starts on its first request (or warm()). oneShot: the worker is ended after each reply,
   * and a fresh one started (a runner: every check starts in an interpreter no earlier
   * student code has touched).
   */
  constructor(url, { role = "main", oneShot = false } = {}) {
    super();
    this.main = role === "main";
    this.role = role;
    this.url = this.main ? url : new URL(`#${role}`, url);
    this.name = `livelab-${this.main ? "python" : role}`;
    this.oneShot = oneShot;
    this.nextId = 1;
    this.queue = [];
    this.running = null;
    this.state = "starting";
    this.message = "";
    this.bootMs = null;
    this.bootPhases = null;
    this.snapshotStore = null; // {bytes, stored, ms} once this tab's helper stored one, or {error}
    this.pycStore = null; // {files, bytes, ms} once this tab stored .pyc files, or {error}
    this.numpyStore = null; // {bytes, ms} once this tab stored NumPy's files, or {error}
    this.skipSnapshot = false;
    this.snapshotWanted = false; // a boot asked for a snapshot; the helper has not started
    this.snapshotHelper = false; // the helper was asked for (its start: report().interpreters)
    if (this.main) this.start();
    else this.state = "idle";
  }

  /** Start this worker now if it is not running, so a request soon finds it ready. */
  warm() {
    if (this.state === "idle") this.start();
  }

  start() {
    this.startedAt = performance.now(); // ms after navigation start; bench/ reports it
    this.restoring = false;
    this.moduleFailed = null;
    const url = new URL(this.url);
    if (this.skipSnapshot) url.searchParams.set("snapshot", "skip");
    const early = this.main ? adoptEarlyWorker(url.href) : null;
    if (early) this.startedAt = early.at;
    this.worker = early?.worker ?? new Worker(url, { type: "module", name: this.name });
    noteInterpreter(this.role);
    this.worker.onmessage = (event) => this.onMessage(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failedScript(this.moduleFailed ?? url.href);
    };
    this.interrupt = null;
    // WebKitGTK can report crossOriginIsolated and still have no SharedArrayBuffer; there a
    // stop respawns the worker, as on a page that is not isolated.
    if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
      this.interrupt = new Uint8Array(new SharedArrayBuffer(1));
      this.worker.postMessage({ type: "interrupt-buffer", buffer: this.interrupt.buffer });
    }
    this.setProgress({ phase: "download", loaded: 0, total: 0 });
    this.setState("starting", "");
    // The early worker's messages came before its error: a module-failed among them names
    // the module that did not load.
    for (const message of early?.messages ?? []) this.onMessage(message);
    if (early?.failed) this.failedScript(this.moduleFailed ?? url.href);
  }

  /** The worker's script (or a module of it) did not load: missing on the server, or not
   * downloaded (the connection)? A HEAD request tells; the message names a missing file. */
  failedScript(url) {
    this.fail(WORKER_FAILED); // at once; a refusal found below replaces the message
    refusedOf([url]).then((refused) => {
      if (refused && this.state === "failed") this.setState("failed", refusedMessage(refused));
    });
  }

  /** Keep the latest boot progress, tell the page, and restart the stall timer. */
  setProgress(detail) {
    this.progress = detail;
    clearTimeout(this.bootTimer);
    const { quietMs, message } = stall(detail.phase);
    this.bootTimer = setTimeout(() => this.fail(message), quietMs);
    this.dispatchEvent(new CustomEvent("progress", { detail }));
  }

  setState(state, message) {
    this.state = state;
    this.message = message;
    this.dispatchEvent(new CustomEvent("status", { detail: { state, message } }));
  }

  fail(message) {
    clearTimeout(this.bootTimer);
    if (this.state === "failed") return;
    // A boot that restored a snapshot and then failed tries without one next time.
    if (this.state === "starting" && this.restoring) this.skipSnapshot = true;
    this.worker.terminate();
    const error = new RuntimeError({ type: "RuntimeUnavailable", message });
    for (const request of this.takeAll()) request.reject(error);
    this.setState("failed", message);
  }

  /** Start a fresh worker after a failure (the "Retry" button). */
  retry() {
    if (this.state !== "failed") return;
    this.start();
  }

  onMessage(message) {
    if (message.type === "module-failed") {
      this.moduleFailed = message.url;
    } else if (message.type === "progress") {
      if (this.state !== "starting") return;
      this.restoring = message.fromSnapshot;
      const { phase, loaded, total } = message;
      this.setProgress({ phase, loaded, total });
    } else if (message.type === "pycs-stored" || message.type === "numpy-stored") {
      noteStored(this, message);
    } else if (message.type === "ready") {
      clearTimeout(this.bootTimer);
      this.readyAt = performance.now(); // ms after navigation start; bench/ reports it
      this.bootMs = message.bootMs;
      this.bootPhases = message.phases;
      this.skipSnapshot = false;
      this.snapshotWanted =
        this.main && message.phases.snapshot === "deferred" && !this.snapshotHelper;
      this.setState("ready", "");
      this.pump();
    } else if (message.type === "boot-error") {
      this.bootDetail = message.detail; // what exactly failed, for whoever debugs it
      this.fail(message.message);
    } else if (message.type === "loading" && message.id === this.running?.id) {
      // A course's extra packages load before the run (worker/packages.js): their download
      // and import get a grace of their own, and whoever asked may say what is loading.
      const request = this.running;
      clearTimeout(request.timer);
      request.timer = setTimeout(() => this.stopRequest(request, "timeout"), LOADING_GRACE_MS);
      request.onLoading?.(message.packages);
    } else if (message.type === "started" && message.id === this.running?.id) {
      const request = this.running;
      clearTimeout(request.timer);
      request.timer = setTimeout(() => this.stopRequest(request, "timeout"), request.timeoutMs);
    } else if (message.type === "interrupted" && message.id === this.running?.id) {
      // Python stopped in place; what is left is the state check, which gets longer (and
      // the time limit no longer applies).
      const request = this.running;
      clearTimeout(request.timer);
      clearTimeout(request.graceTimer);
      request.graceTimer = setTimeout(() => this.respawn(request), CHECK_GRACE_MS);
    } else if (this.running && message.id === this.running.id) {
      const request = this.running;
      if (message.error?.fatal) {
        request.stopReason = "crashed";
        this.respawn(request); // the old worker cannot run anything more
        return;
      }
      this.finish();
      if (message.type === "result") request.resolve(message.value);
      else request.reject(new RuntimeError(explainStop(request, message.error)));
      if (this.oneShot) this.retire();
      else if (message.restart) this.replace();
      else this.pump();
    }
  }

  /** Start a fresh worker between requests; the waiting ones go to it once it is ready. */
  replace() {
    this.worker.terminate();
    clearTimeout(this.bootTimer);
    this.start();
  }

  /** End a one-shot worker after its reply, and start the next one at once: a student who
   * checks once usually checks again soon. */
  retire() {
    this.worker.terminate();
    clearTimeout(this.bootTimer);
    this.start();
  }

  finish() {
    clearTimeout(this.running.timer);
    clearTimeout(this.running.graceTimer);
    this.running = null;
  }

  takeAll() {
    const all = this.running ? [this.running, ...this.queue] : [...this.queue];
    if (this.running) this.finish();
    this.queue = [];
    return all;
  }

  pump() {
    if (this.state !== "ready" || this.running) return;
    if (this.queue.length === 0) {
      if (this.snapshotWanted) makeSnapshot(this);
      return;
    }
    const request = this.queue.splice(nextIndex(this.queue), 1)[0];
    this.running = request;
    // The first student code in a worker waits for its warm-up (slow right after a restore
    // from the snapshot), which the worker says is done with "started": the run's own time
    // limit counts from there.
    request.timer = setTimeout(
      () => this.stopRequest(request, "timeout"),
      request.timeoutMs + WARM_UP_GRACE_MS,
    );
    // A stop that came too late for the last request must not stop this one; a stop for this
    // one may come before the worker begins it, so the worker leaves the buffer alone.
    if (this.interrupt) this.interrupt[0] = 0;
    this.worker.postMessage(request.message);
  }

  /** How this tab's Python started and what it did since (report.js); the main client's. */
  report() {
    return bootReport(this);
  }

  /**
   * Send a request; resolves with the worker's value, rejects with a RuntimeError.
   * Returns a promise with an `id` property that `stop(id)` accepts. distance: for a request
   * made for something on the page, a function giving how far (px) it is from the viewport
   * now; of the requests that wait, the nearest goes first (see nextIndex).
   */
  request(message, { timeoutMs = DEFAULT_TIMEOUT_MS, distance = null, onLoading = null } = {}) {
    const id = this.nextId++;
    let request;
    const promise = new Promise((resolve, reject) => {
      const fields = { resolve, reject, timeoutMs, distance, onLoading, stopReason: null };
      request = { id, message: { ...message, id }, ...fields };
    });
    promise.id = id;
    if (this.state === "failed") {
      request.reject(new RuntimeError({ type: "RuntimeUnavailable", message: this.message }));
      return promise;
    }
    this.queue.push(request);
    if (this.state === "idle") this.start();
    this.pump();
    return promise;
  }

  run(code, options) {
    return this.request({ type: "run", code }, options);
  }

  call(name, args, options) {
    return this.request({ type: "call", name, args }, options);
  }
}

Object.assign(Runtime.prototype, stopping);

export const runtime = new Runtime(WORKER_URL);
/** The scratchpad's Python: free code, kept between runs, never beside the grader. */
export const scratchRuntime = new Runtime(WORKER_URL, { role: "scratch" });
/** Where a code question's blank runs: a fresh worker for every run and check. */
export const runner = new Runtime(WORKER_URL, { role: "runner", oneShot: true });
