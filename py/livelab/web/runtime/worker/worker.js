// The Pyodide worker, started by runtime/page/client.js. It boots Pyodide, NumPy and the livelab
// package, then answers one request at a time (the client never sends two).
//
// Its role, from its URL's #fragment (client.js), says what it answers
// (livelab.worker_api.ROLES): "python", the page's main worker, draws labs and grades checks
// and never runs student code; "scratch" runs the scratchpad's code; "runner" runs one blank
// of a code question and is then ended. Both that run student code first lose the origin's
// storage, other workers and channels (sandbox.js); a runner also loses the network and is
// booted without the course (livelab.set_aside), so nothing it runs can reach the site's
// files, the reference or a later verdict.
//
// In:  {type: "interrupt-buffer", buffer}   a SharedArrayBuffer for stopping runs
//      {id, type: "run", code}               execute code, reply with what it printed
//      {id, type: "call", name, args}        call a listed livelab function
// Out: {type: "ready", bootMs, phases} | {type: "boot-error", message, detail}
//      {type: "progress", phase, loaded, total}   boot progress; loaded/total in bytes
//      {type: "pycs-stored", files, bytes, ms} | {type: "pycs-stored", error}
//      {type: "numpy-stored", bytes, ms} | {type: "numpy-stored", error}
//      {id, type: "started"}   the request's code starts now (after any warm-up)
//      {id, type: "interrupted"}   Python stopped the request's code; its reply follows
//      {id, type: "result", value, restart}
//      {id, type: "error", error: {type, message, line, column, deep, asleep}, restart}
//
// Every error has that one shape, whether Python sent it (livelab.worker_api.error_reply) or
// this worker made it (errorReply, from a copy of Python's shape taken at boot, so a crash
// after which Python answers nothing has it too); a fatal crash adds fatal: true.
//
// restart is null, or why the client must replace this worker once the reply is read:
// "changed" (student code changed the interpreter; livelab.worker_state says what counts)
// or "memory" (WebAssembly memory never shrinks, so a big array would keep it for good).
// The reply then carries the sentence for the page: value.note, or error.note.
//
// The boot itself (snapshot, downloads, progress) is in boot.js; the snapshot for later boots
// is made by another worker (snapshot-worker.js). After a boot that had no
// stored .pyc files, they are compiled between requests and stored (pycache.js).

// first: no WebAssembly memory of this worker grows past the limit
import { memoryBytes } from "./memory-cap.js";
import { earlyManifest, headStart } from "./head-start.js";
import { strip } from "./sandbox.js";

const ROLE = { "#runner": "runner", "#scratch": "scratch" }[self.location.hash] ?? "main";

// The boot's modules load only after headStart has set the stored bytes, the manifest and
// pyodide.asm.js coming (see head-start.js); they are bound below once loaded.
headStart();
const modules = Promise.all([import("./boot.js"), import("./pycache.js"), import("../../i18n.js")]);
let BootError, PACKAGE_DIR, makePycs, storePycs, t; // t: a sentence in the site's language

// {call, after, cleanState, studentCalls, snapshot}: functions bound once at boot, so student
// code that rebinds names in livelab.worker_api cannot swap them.
let api = null;
let interruptBuffer = null;
let pyodideModule = null;
let studentCodeRan = false;
let calls = new Set(); // what this worker answers, by role (bound at boot)
let lastAnswerAt = 0; // when the last request was answered (performance.now())
const IDLE_MS = 250; // no request for this long: the page's first requests were answered

let errorShape = null; // Python's error_reply with no type and message, copied at boot

/** An error in the shape Python's error_reply gives it. */
function errorReply(type, message) {
  return { ...errorShape, type, message };
}

/** The shape of every error (livelab.worker_api.error_shape), read once before any request. */
function copyErrorShape(pyodide) {
  const module = pyodide.pyimport("livelab.worker_api");
  try {
    return JSON.parse(module.error_shape());
  } finally {
    module.destroy();
  }
}

function errorFrom(err) {
  // A PythonError carries the Python type. After a fatal error Pyodide cannot run anything
  // more, so the client must start a new worker.
  const type = err && err.type ? err.type : "Error";
  const message = String(err && err.message ? err.message : err);
  // CPython's "Handler takes too many arguments" (a damaged interpreter, livelab.explain):
  // this worker can no longer be trusted to answer, so it is replaced as after a crash.
  const broken = message.includes("Handler takes too many arguments");
  if (!(err && err.pyodide_fatal_error) && !broken) return errorReply(type, message);
  return { ...errorReply("RuntimeCrashed", message), fatal: true };
}

/** Whether to replace this worker now, and the sentence that says why: {restart, note}. */
function afterRequest(ranStudentCode) {
  if (ROLE === "runner") return { restart: null, note: null }; // ended after this reply anyway
  try {
    const answer = api.after(api.snapshot, ranStudentCode, memoryBytes());
    const [restart, note] = answer.toJs();
    answer.destroy();
    return { restart: restart ?? null, note: note ?? null };
  } catch (err) {
    // The check itself failed: student code broke something it relies on.
    return { restart: "changed", note: null };
  }
}

function answer(message, problem = null) {
  try {
    answerRequest(message, problem);
  } finally {
    lastAnswerAt = performance.now();
  }
}

function answerRequest(message, problem) {
  const name = message.type === "run" ? "run" : message.name;
  if (!calls.has(name)) {
    const error = errorReply("ProtocolError", `a ${ROLE} worker does not answer ${name}`);
    postMessage({ id: message.id, type: "error", error, restart: null });
    return;
  }
  const studentCode = api.studentCalls.has(name);
  let reply;
  try {
    // The warm-up before the first student code is not the student's time: the client
    // counts the request's time limit from "started".
    if (studentCode && !api.snapshot && ROLE === "scratch") {
      api.snapshot = api.cleanState(PACKAGE_DIR);
    }
    studentCodeRan ||= studentCode;
    postMessage({ id: message.id, type: "started" });
    if (message.type !== "run" && message.type !== "call") {
      reply = { error: errorReply("ProtocolError", `unknown request ${message.type}`) };
    } else {
      const args = message.type === "run" ? { code: message.code } : (message.args ?? {});
      reply = JSON.parse(api.call(name, JSON.stringify(args)));
    }
  } catch (err) {
    reply = { error: errorFrom(err) };
  }
  if (reply.error?.fatal) {
    postMessage({ id: message.id, type: "error", error: reply.error, restart: null });
    return;
  }
  // Python obeyed a stop: say so now, since the state check below can take a while on a
  // busy machine and the client would otherwise end this worker as unresponsive.
  if (reply.error?.type === "KeyboardInterrupt") postMessage({ id: message.id, type: "interrupted" });
  const { restart, note } = afterRequest(studentCode);
  if (reply.error) {
    if (note) reply.error.note = note;
    postMessage({ id: message.id, type: "error", error: reply.error, restart });
  } else {
    const value = reply.value;
    if (note && value && typeof value === "object" && !Array.isArray(value)) value.note = note;
    if (problem && value && typeof value === "object") value.packages_problem = problem;
    postMessage({ id: message.id, type: "result", value, restart });
  }
}

/**
 * Run work once no request has come for IDLE_MS: the page's first lab views, asked for as
 * soon as Python is ready, are answered before it starts.
 */
async function whenIdle(work) {
  const idle = () => performance.now() - lastAnswerAt >= IDLE_MS;
  do await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  while (!idle());
  work();
}

/** Compile and store the .pyc files for the next boot, unless student code runs meanwhile. */
async function storeBytecode(key) {
  try {
    const files = await makePycs(api, PACKAGE_DIR, () => studentCodeRan);
    if (files) postMessage({ type: "pycs-stored", ...(await storePycs(key, files)) });
  } catch (err) {
    postMessage({ type: "pycs-stored", error: String(err && err.message ? err.message : err) });
  }
}

const ready = modules.then(
  ([bootModule, pycache, i18n]) => {
    ({ BootError, PACKAGE_DIR } = bootModule);
    ({ t } = i18n);
    ({ makePycs, storePycs } = pycache);
    const sandboxed = (booted) => {
      if (ROLE === "runner") {
        const setAside = booted.pyodide.pyimport("livelab.set_aside");
        try {
          setAside.check_no_course(PACKAGE_DIR, booted.courseModules);
        } finally {
          setAside.destroy();
        }
      }
      if (ROLE !== "main") booted.phases.removed = strip({ network: ROLE !== "runner" });
      return booted;
    };
    return bootModule
      .boot({ withCourse: ROLE !== "runner" })
      .then((booted) => {
        try {
          return sandboxed(booted);
        } catch (err) {
          throw new BootError(t("runtime.no_safe_place"), err);
        }
      })
      .then(
        (booted) => {
          const { bootMs, phases } = booted;
          api = booted.api;
          pyodideModule = booted.pyodide;
          errorShape = copyErrorShape(pyodideModule);
          calls = api.roleCalls(ROLE);
          if (interruptBuffer) pyodideModule.setInterruptBuffer(interruptBuffer);
          postMessage({ type: "ready", bootMs, phases });
          if (booted.pycsNeeded && ROLE === "main") whenIdle(() => storeBytecode(booted.pycsNeeded));
          return true;
        },
        (err) => {
          const failed =
            err instanceof BootError
              ? err
              : new BootError(t("runtime.could_not_start"), err);
          postMessage({ type: "boot-error", message: failed.message, detail: failed.detail });
          return false;
        },
      );
  },
  (err) => {
    // A module of this worker did not load: the page hears it as the worker's own script
    // failing (its error event), as when worker.js itself does not load, with the module's
    // address when the error names it (the client asks the server whether it is there).
    const url = String(err?.message ?? "").match(/https?:\/\/\S+\.js/)?.[0];
    if (url) postMessage({ type: "module-failed", url });
    reportError(err);
    return false;
  },
);

/**
 * Before a scratch run: load and import the course's extra packages its code imports
 * (packages.js), as a request of no student code, so their modules join the clean state. A
 * package that does not load is said in the run's reply; the run's import then fails.
 */
async function packagesFor(message) {
  const code = message.type === "run" ? message.code : message.args?.code;
  const runsCode = message.type === "run" || message.name === "scratch_run";
  if (ROLE !== "scratch" || !runsCode || typeof code !== "string") return null;
  try {
    const served = (await earlyManifest()).packages ?? {};
    if (Object.keys(served).length === 0) return null; // a course without: nothing more loads
    const { loadImported } = await import("./packages.js");
    const loading = (packages) => postMessage({ id: message.id, type: "loading", packages });
    const names = await loadImported(pyodideModule, served, code, loading);
    if (names.length === 0) return null;
    const reply = JSON.parse(api.call("packages_import", JSON.stringify({ names })));
    const before = api.snapshot;
    api.snapshot = api.packagesReady(before, PACKAGE_DIR) ?? null;
    before?.destroy?.();
    if (!reply.error) return null;
    return t("runtime.packages_not_imported", { names: names.join(", "), message: reply.error.message });
  } catch (err) {
    return String(err.message ?? err);
  }
}

// Requests are answered one at a time, in the order they came.
let turn = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "interrupt-buffer") {
    interruptBuffer = new Uint8Array(message.buffer);
    if (pyodideModule) pyodideModule.setInterruptBuffer(interruptBuffer);
    return;
  }
  // After a boot-error the client restarts the worker on retry; nothing is answered here.
  turn = turn
    .then(async () => {
      if (!(await ready)) return;
      const problem = await packagesFor(message);
      answer(message, problem);
    })
    .catch(reportError); // as an error thrown by an event handler: the next request is answered
};
