// The Pyodide worker: one per tab, started by runtime/client.js. It boots Pyodide, NumPy and
// the livelab package, then answers one request at a time (the client never sends two).
//
// In:  {type: "interrupt-buffer", buffer}   a SharedArrayBuffer for stopping runs
//      {id, type: "run", code}               execute code, reply with what it printed
//      {id, type: "call", name, args}        call a listed livelab function
// Out: {type: "ready", bootMs, phases} | {type: "boot-error", message}
//      {id, type: "result", value} | {id, type: "error", error: {type, message, line, column}}

const ASSETS = new URL("../", import.meta.url);
const PACKAGE_DIR = "/opt/livelab";

let api = null;
let interruptBuffer = null;
let pyodideModule = null;

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

async function boot() {
  const started = performance.now();
  const phases = {};
  const mark = (name) => (phases[name] = Math.round(performance.now() - started));
  const manifest = await (await fetchOk(new URL("manifest.json", ASSETS))).json();
  const indexURL = new URL(manifest.pyodide, ASSETS).href;
  // Fetch our package now and warm the HTTP cache with the NumPy wheel, while Pyodide's
  // WebAssembly compiles; loadPackage then finds the wheel at hand.
  const archive = fetchOk(new URL(manifest.archive, ASSETS)).then((r) => r.arrayBuffer());
  fetch(new URL(manifest.numpy, indexURL)).then((r) => r.arrayBuffer()).catch(() => {});
  mark("manifest");
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href));
  } catch (err) {
    throw new Error(`could not load pyodide.mjs from ${indexURL} (${err.message})`);
  }
  // enableRunUntilComplete: false keeps Pyodide off its JSPI path, which crashes Safari.
  const pyodide = await Promise.race([
    loadPyodide({ indexURL, enableRunUntilComplete: false }),
    wasmFailure(),
  ]);
  mark("pyodide");
  const packageErrors = [];
  await pyodide.loadPackage("numpy", {
    messageCallback: () => {},
    errorCallback: (message) => packageErrors.push(message),
  });
  if (!pyodide.loadedPackages.numpy) {
    throw new Error(`NumPy did not load: ${packageErrors.join("; ") || "no reason given"}`);
  }
  mark("numpy");
  pyodide.unpackArchive(await archive, "zip", { extractDir: PACKAGE_DIR });
  pyodide.pyimport("sys").path.insert(0, PACKAGE_DIR);
  api = pyodide.pyimport("livelab.worker_api");
  mark("livelab");
  pyodideModule = pyodide;
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  return { bootMs: performance.now() - started, phases };
}

function errorFrom(err) {
  // A PythonError carries the Python type; KeyboardInterrupt is how a stop arrives. After a
  // fatal error Pyodide cannot run anything more, so the client must start a new worker.
  const type = err && err.type ? err.type : "Error";
  const message = String(err && err.message ? err.message : err);
  const fatal = Boolean(err && err.pyodide_fatal_error);
  return {
    type: fatal ? "RuntimeCrashed" : type,
    message: type === "KeyboardInterrupt" ? "stopped" : message,
    line: null,
    column: null,
    fatal,
  };
}

function answer(message) {
  if (interruptBuffer) interruptBuffer[0] = 0;
  try {
    let reply;
    if (message.type === "run") reply = JSON.parse(api.run(message.code));
    else if (message.type === "call") reply = JSON.parse(api.call(message.name, JSON.stringify(message.args ?? {})));
    else reply = { error: { type: "ProtocolError", message: `unknown request ${message.type}` } };
    if (message.type === "call") {
      if (reply.error) postMessage({ id: message.id, type: "error", error: reply.error });
      else postMessage({ id: message.id, type: "result", value: reply.value });
    } else {
      postMessage({ id: message.id, type: "result", value: reply });
    }
  } catch (err) {
    postMessage({ id: message.id, type: "error", error: errorFrom(err) });
  }
}

const ready = boot().then(
  ({ bootMs, phases }) => {
    postMessage({ type: "ready", bootMs, phases });
    return true;
  },
  (err) => {
    postMessage({ type: "boot-error", message: String(err && err.message ? err.message : err) });
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
