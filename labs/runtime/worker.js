// The Pyodide worker: one per tab, started by runtime/client.js. It boots Pyodide, NumPy and
// the livelab package, then answers one request at a time (the client never sends two).
//
// In:  {type: "interrupt-buffer", buffer}   a SharedArrayBuffer for stopping runs
//      {id, type: "run", code}               execute code, reply with what it printed
//      {id, type: "call", name, args}        call a listed livelab function
// Out: {type: "ready", bootMs, phases} | {type: "boot-error", message, detail}
//      {id, type: "result", value, restart}
//      {id, type: "error", error: {type, message, line, column, deep}, restart}
//
// restart is null, or why the client must replace this worker once the reply is read:
// "changed" (student code changed the interpreter; livelab.worker_state says what counts)
// or "memory" (WebAssembly memory never shrinks, so a big array would keep it for good).
// The reply then carries the sentence for the page: value.note, or error.note.

const ASSETS = new URL("../", import.meta.url);
const PACKAGE_DIR = "/opt/livelab";
const RETRY = "Check your connection, then press Retry.";

// {call, after, cleanState, studentCalls, snapshot}: functions bound once at boot, so student
// code that rebinds names in livelab.worker_api cannot swap them.
let api = null;
let interruptBuffer = null;
let pyodideModule = null;

/** A boot step that failed: `message` is the sentence for the page, `detail` what happened. */
class BootError extends Error {
  constructor(message, cause) {
    super(message);
    this.detail = String(cause && cause.message ? cause.message : cause);
  }
}

async function step(sentence, work) {
  try {
    return await work();
  } catch (err) {
    throw err instanceof BootError ? err : new BootError(sentence, err);
  }
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  return response;
}

// Pyodide only logs a failed pyodide.asm.wasm download and then waits forever; watching the
// instantiation ourselves turns that into a boot error the page can show.
function wasmFailure() {
  return new Promise((_, reject) => {
    for (const name of ["instantiateStreaming", "instantiate"]) {
      const original = WebAssembly[name];
      WebAssembly[name] = (...args) => {
        const result = original.apply(WebAssembly, args);
        result.catch((err) => reject(new Error(`pyodide.asm.wasm did not load (${err.message})`)));
        return result;
      };
    }
  });
}

/** Make the unpacked package read-only, so a line of student code cannot rewrite it. */
function protect(FS, path) {
  const { mode } = FS.stat(path);
  if (FS.isDir(mode)) {
    for (const name of FS.readdir(path)) {
      if (name !== "." && name !== "..") protect(FS, `${path}/${name}`);
    }
    FS.chmod(path, 0o555);
  } else {
    FS.chmod(path, 0o444);
  }
}

async function boot() {
  const started = performance.now();
  const phases = {};
  const mark = (name) => (phases[name] = Math.round(performance.now() - started));
  const runtimeFiles =
    `Python could not start because its runtime files could not be downloaded. ${RETRY}`;
  const manifest = await step(runtimeFiles, async () =>
    (await fetchOk(new URL("manifest.json", ASSETS))).json(),
  );
  const indexURL = new URL(manifest.pyodide, ASSETS).href;
  // Fetch our package now and warm the HTTP cache with the NumPy wheel, while Pyodide's
  // WebAssembly compiles; loadPackage then finds the wheel at hand.
  const archive = fetchOk(new URL(manifest.archive, ASSETS)).then((r) => r.arrayBuffer());
  archive.catch(() => {}); // awaited (and reported) below
  fetch(new URL(manifest.numpy, indexURL)).then((r) => r.arrayBuffer()).catch(() => {});
  mark("manifest");
  const { loadPyodide } = await step(runtimeFiles, () =>
    import(new URL("pyodide.mjs", indexURL).href),
  );
  // enableRunUntilComplete: false keeps Pyodide off its JSPI path, which crashes Safari.
  // A missing python_stdlib.zip ends in "Program terminated with exit(1)": also a download.
  const pyodide = await step(runtimeFiles, () =>
    Promise.race([loadPyodide({ indexURL, enableRunUntilComplete: false }), wasmFailure()]),
  );
  mark("pyodide");
  const packageErrors = [];
  await step(`Python could not start because NumPy could not be downloaded. ${RETRY}`, async () => {
    await pyodide.loadPackage("numpy", {
      messageCallback: () => {},
      errorCallback: (message) => packageErrors.push(message),
    });
    if (!pyodide.loadedPackages.numpy) throw new Error(packageErrors.join("; ") || "no reason given");
  });
  mark("numpy");
  const data = await step(
    `Python could not start because the course's Python code could not be downloaded. ${RETRY}`,
    () => archive,
  );
  await step(
    "Python could not start because the course's Python code failed to load. " +
      "Reload the page to try again.",
    () => {
      pyodide.unpackArchive(data, "zip", { extractDir: PACKAGE_DIR });
      protect(pyodide.FS, PACKAGE_DIR);
      pyodide.pyimport("sys").path.insert(0, PACKAGE_DIR);
      const module = pyodide.pyimport("livelab.worker_api");
      api = {
        call: module.call,
        after: module.after_request,
        cleanState: module.clean_state,
        studentCalls: new Set(module.STUDENT_CALLS),
        snapshot: null, // taken just before the first request that runs student code
      };
    },
  );
  mark("livelab");
  pyodideModule = pyodide;
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  return { bootMs: performance.now() - started, phases };
}

function errorFrom(err) {
  // A PythonError carries the Python type. After a fatal error Pyodide cannot run anything
  // more, so the client must start a new worker.
  const type = err && err.type ? err.type : "Error";
  const message = String(err && err.message ? err.message : err);
  const fatal = Boolean(err && err.pyodide_fatal_error);
  return { type: fatal ? "RuntimeCrashed" : type, message, line: null, column: null, fatal };
}

/** Whether to replace this worker now, and the sentence that says why: {restart, note}. */
function afterRequest(ranStudentCode) {
  try {
    const heapBytes = pyodideModule._module.HEAP8.buffer.byteLength;
    const answer = api.after(api.snapshot, ranStudentCode, heapBytes);
    const [restart, note] = answer.toJs();
    answer.destroy();
    return { restart: restart ?? null, note: note ?? null };
  } catch (err) {
    // The check itself failed: student code broke something it relies on.
    return { restart: "changed", note: null };
  }
}

function answer(message) {
  if (interruptBuffer) interruptBuffer[0] = 0;
  const name = message.type === "run" ? "run" : message.name;
  const studentCode = api.studentCalls.has(name);
  let reply;
  try {
    if (studentCode && !api.snapshot) api.snapshot = api.cleanState(PACKAGE_DIR);
    if (message.type !== "run" && message.type !== "call") {
      reply = { error: { type: "ProtocolError", message: `unknown request ${message.type}` } };
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
  const { restart, note } = afterRequest(studentCode);
  if (reply.error) {
    if (note) reply.error.note = note;
    postMessage({ id: message.id, type: "error", error: reply.error, restart });
  } else {
    const value = reply.value;
    if (note && value && typeof value === "object" && !Array.isArray(value)) value.note = note;
    postMessage({ id: message.id, type: "result", value, restart });
  }
}

const ready = boot().then(
  ({ bootMs, phases }) => {
    postMessage({ type: "ready", bootMs, phases });
    return true;
  },
  (err) => {
    const failed =
      err instanceof BootError
        ? err
        : new BootError("Python could not start. Reload the page to try again.", err);
    postMessage({ type: "boot-error", message: failed.message, detail: failed.detail });
    return false;
  },
);

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "interrupt-buffer") {
    interruptBuffer = new Uint8Array(message.buffer);
    if (pyodideModule) pyodideModule.setInterruptBuffer(interruptBuffer);
    return;
  }
  // After a boot-error the client restarts the worker on retry; nothing is answered here.
  if (await ready) answer(message);
};
