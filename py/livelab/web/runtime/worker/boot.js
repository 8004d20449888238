// The worker's boot: the interpreter (restored from a memory snapshot, or started the normal
// way), NumPy, and our package; progress messages while it goes on. worker.js calls boot().
//
// The steps and their sources, best first, are stated as data in shared/boot-plan.js; the
// page's boot report (page/report.js) says which source each step came from.
//
// Boot: the interpreter comes from a memory snapshot when one is stored for this runtime and
// package (snapshot.js); otherwise it starts the normal way, and the client has one made by a
// helper worker once this boot is live (snapshot-worker.js). phases.snapshot says which:
// "restored", "deferred" (to be made by the helper), or "none" (no Cache Storage). The
// worker's URL parameter ?snapshot=skip (the client sets it after a boot that restored one
// failed or stalled) drops the stored snapshot, and a new one is made. What was stored is
// read from the worker's start on (head-start.js), while these modules load.
//
// Bytecode: the .pyc files stored after an earlier boot, else the build's (pycache.js), are
// written back before NumPy and our package are imported; phases.pycs says how many and
// phases.pycsFrom whose ("stored" or "build"); 0 when there were none, or they were unusable
// (phases.pycError or phases.bytecodeError says why). A boot that had none returns
// pycsNeeded, and the worker makes and stores them once Python is live.
//
// NumPy's files come from the store an earlier boot left, else from the wheel (numpy.js);
// a boot that used the wheel stores them and posts "numpy-stored".
//
// The other phases are ms after the worker started: manifest, snapshotRead (the stored
// snapshot's bytes read and checked, while pyodide.asm.wasm loads), pyodide (the interpreter
// is up), unzipped (NumPy's files are ready; phases.wheel says where from), downloaded
// (every large file is in), numpy, livelab (ready).
//
// Failures: a step that fails says what did not come (its sentence, "Check your connection"),
// unless the server answered one of its files with an error status: then the page names that
// file and the status (stops.js refusedMessage), since the connection works.

import { Downloads, fetchOk, RefusedFile, refusedOf } from "../shared/downloads.js";
import { numpyFiles, storeNumpyFiles, wheelAgain } from "./numpy.js";
import { dropSnapshot, findSnapshot, snapshotKey } from "../shared/snapshot.js";
import { builtPycs, dropPycs, loadPycs, pycKey, writePycs } from "./pycache.js";
import { earlyManifest, failedScript, SKIP_STORED, takeWasmFetch } from "./head-start.js";
import { interpreter, loadNumpy } from "./interpreter.js";
import { refusedMessage } from "../shared/stops.js";
import { t } from "../../i18n.js";
import {
  canInstallWheel, engineOnly, installWheel, PACKAGE_DIR, protect, unzip, writeFiles,
} from "../shared/unpack.js";

export { PACKAGE_DIR };

const ASSETS = new URL("../../", import.meta.url);

/** A boot step that failed: `message` is the sentence for the page, `detail` what happened. */
export class BootError extends Error {
  constructor(message, cause) {
    super(message);
    this.detail = String(cause && cause.message ? cause.message : cause);
  }
}

/**
 * The sentence of a boot step that downloads something, for err: said({ missing }) names what
 * did not come, with each file that did not (from err, and every download and import that
 * failed so far) in `missing`, then says what to do.
 */
function downloadFailed(said) {
  return (err) => {
    const failed = [err?.failed, ...(downloads?.failed ?? []), failedScript()].filter(Boolean);
    const files = [...new Set(failed.map((f) => f.file))];
    let missing = "";
    if (files.length > 0) {
      const named = { files: files.join(", ") };
      const damaged = failed.some((f) => f.damaged);
      const note = damaged
        ? t("runtime.missing_files_damaged", named)
        : t("runtime.missing_files", named);
      missing = ` ${note}`;
    }
    return said({ missing });
  };
}

/**
 * Run one boot step; if it fails, a BootError with sentence (or sentence(err)), unless the
 * server answered one of the step's files (fetched by us, or among `files`) with an error
 * status: then the page names that file (stops.js refusedMessage), since the connection is
 * not what failed.
 */
async function step(sentence, work, files = []) {
  try {
    return await work();
  } catch (err) {
    if (err instanceof BootError) throw err;
    const refused = err instanceof RefusedFile ? err : await refusedOf(files);
    if (refused) throw new BootError(refusedMessage(refused), err);
    throw new BootError(typeof sentence === "function" ? sentence(err) : sentence, err);
  }
}

// Where the boot is ("python", "numpy", "course"), and the bytes counted so far; the page
// sees "download" while any large file is still arriving.
let downloads = null;
let bootStep = "python";
let fromSnapshot = false; // from the start of a restore on: the client retries without one

function reportProgress() {
  const phase = downloads && !downloads.done ? "download" : bootStep;
  const loaded = downloads ? downloads.loaded : 0;
  const total = downloads ? downloads.total : 0;
  postMessage({ type: "progress", phase, loaded, total, fromSnapshot });
}

function enterStep(name) {
  bootStep = name;
  reportProgress();
}

/** The large downloads to count, URL -> size (0 when the manifest does not say). */
function tracked(manifest, indexURL) {
  const sizes = {};
  for (const name of ["pyodide.asm.wasm", "python_stdlib.zip", manifest.numpy]) {
    sizes[new URL(name, indexURL).href] = 0;
  }
  sizes[new URL(manifest.archive, ASSETS).href] = 0;
  for (const [path, size] of Object.entries(manifest.sizes ?? {})) {
    sizes[new URL(path, ASSETS).href] = size;
  }
  return sizes;
}

/**
 * Boot Python; resolves to {pyodide, api, bootMs, phases, pycsNeeded, courseModules},
 * rejects with a BootError. api holds the functions of livelab.worker_api the worker calls
 * (bound once, see worker.js); pycsNeeded is the key to store .pyc files under when none were
 * written back. A runner (withCourse false) gets livelab's engine only: none of the course's
 * files, bytecode or modules enter its interpreter (livelab.set_aside says why).
 */
export async function boot({ withCourse = true } = {}) {
  const started = performance.now();
  const phases = {};
  const mark = (name) => (phases[name] = Math.round(performance.now() - started));
  const runtimeFiles = downloadFailed((values) => t("runtime.download_failed_runtime", values));
  const manifest = await step(runtimeFiles, earlyManifest);
  const indexURL = new URL(manifest.pyodide, ASSETS).href;
  downloads = new Downloads(tracked(manifest, indexURL), () => {
    if (downloads.done && phases.downloaded === undefined) mark("downloaded");
    reportProgress();
  });
  self.fetch = downloads.fetch; // Pyodide's own downloads are counted too
  const wasm = takeWasmFetch(); // asked for while these modules loaded
  if (wasm) downloads.adopt(wasm.url, wasm.pending);
  enterStep("python");
  const key = snapshotKey(manifest);
  const stored = (SKIP_STORED ? Promise.reject(new Error("skipped")) : findSnapshot(key)).catch(
    async (err) => {
      if (!SKIP_STORED) phases.snapshotError = String(err.message ?? err);
      await dropSnapshot().catch(() => {});
      return null;
    },
  );
  // The interpreter's own downloads, which the NumPy wheel and the build's .pyc files give way to.
  const first = ["pyodide.asm.wasm", "python_stdlib.zip"].map((n) => new URL(n, indexURL).href);
  let pythonIsUp;
  const pythonUp = new Promise((resolve) => (pythonIsUp = resolve));
  // .pyc files: stored by an earlier boot, else made by the build (pycache.js says when).
  const storedPycs = (SKIP_STORED ? Promise.reject(new Error("skipped")) : loadPycs(pycKey(manifest)))
    .catch(async (err) => {
      if (!SKIP_STORED) phases.pycError = String(err.message ?? err);
      await dropPycs().catch(() => {});
      return null;
    })
    .then(async (files) => {
      if (files) return { files, from: "stored" };
      const built = await builtPycs({ manifest, downloads, first, pythonUp });
      return built && { files: built, from: "build" };
    })
    .catch((err) => {
      phases.bytecodeError = String(err.message ?? err);
      return null;
    });
  // Download our package and the NumPy wheel now, and unzip them while the interpreter
  // starts; each is awaited (and its failure reported) below.
  const archive = fetchOk(new URL(manifest.archive, ASSETS)).then((r) => r.arrayBuffer());
  const archiveFiles = archive.then(unzip);
  // NumPy's files: stored by an earlier boot, or from the wheel (numpy.js says when).
  const useStore = !SKIP_STORED && Boolean(globalThis.caches);
  const numpy = numpyFiles({ manifest, indexURL, first, downloads, phases, mark, useStore });
  for (const pending of [archive, archiveFiles, numpy]) pending.catch(() => {});
  mark("manifest");
  // Pyodide's own files: it imports or fetches them, so a refused one is found by asking.
  const loaders = ["pyodide.mjs", "pyodide.asm.js", "pyodide-lock.json"];
  const runtime = [...loaders.map((name) => new URL(name, indexURL).href), ...first];
  const { loadPyodide } = await step(
    runtimeFiles,
    () => import(new URL("pyodide.mjs", indexURL).href),
    runtime,
  );
  // A missing python_stdlib.zip ends in "Program terminated with exit(1)": also a download.
  const pyodide = await step(
    runtimeFiles,
    () => {
      const restoring = () => {
        fromSnapshot = true;
        reportProgress();
      };
      return interpreter({ loadPyodide, indexURL, stored, phases, mark, restoring });
    },
    runtime,
  );
  // Pyodide only logs a standard library that did not come, and goes on without it: a restored
  // snapshot would then work until an import needs a module it does not hold.
  const stdlibLost = () => downloads.failed.some((f) => f.file === "python_stdlib.zip");
  await step(
    runtimeFiles,
    async () => {
      if (stdlibLost()) throw new Error("python_stdlib.zip did not load");
    },
    runtime,
  );
  mark("pyodide");
  pythonIsUp();
  enterStep("numpy");
  const installed = await step(
    downloadFailed((values) => t("runtime.download_failed_numpy", values)),
    async () => {
      if (!canInstallWheel(pyodide)) {
        phases.numpyBy = "loadPackage"; // phases.wheel says where the unused files came from
        return loadNumpy(pyodide);
      }
      const install = ({ sha256, files, error }) =>
        installWheel(pyodide, "numpy", sha256, files, error).then(() => files);
      try {
        return await install(await numpy);
      } catch (err) {
        // A damaged copy in the browser's cache is downloaded again, past that cache.
        if (!(err.damaged && phases.wheel === "cache")) throw err;
        return install(await wheelAgain(manifest, indexURL, phases));
      }
    },
    [new URL(manifest.numpy, indexURL).href],
  );
  mark("numpy");
  if (globalThis.caches && phases.wheel !== "stored" && canInstallWheel(pyodide)) {
    storeNumpyFiles(manifest, installed).then(
      (done) => postMessage({ type: "numpy-stored", ...done }),
      (err) => postMessage({ type: "numpy-stored", error: String(err.message ?? err) }),
    );
  }
  enterStep("course");
  const files = await step(
    downloadFailed((values) => t("runtime.download_failed_course", values)),
    () => archiveFiles,
  );
  const pycs = await storedPycs;
  const api = await step(
    t("runtime.course_failed"),
    () => {
      const kept = (list, path) => (withCourse ? list : list.filter((item) => engineOnly(path(item))));
      writeFiles(pyodide.FS, PACKAGE_DIR, kept(files, ([name]) => name));
      phases.pycs = pycs ? writePycs(pyodide.FS, kept(pycs.files, ([path]) => path)) : 0;
      if (pycs) phases.pycsFrom = pycs.from;
      protect(pyodide.FS, PACKAGE_DIR);
      pyodide.pyimport("sys").path.insert(0, PACKAGE_DIR);
      let module;
      try {
        module = pyodide.pyimport("livelab.worker_api");
        // Then the course's own modules (plugin setting `modules`): they register its labs
        // and code questions, so a call can reach them.
        if (withCourse) for (const name of manifest.modules ?? []) pyodide.pyimport(name).destroy();
      } catch (err) {
        if (pycs) dropPycs().catch(() => {}); // so the next boot compiles from the sources
        throw err;
      }
      const names = (list) => {
        const copy = list.toJs();
        list.destroy?.();
        return new Set(copy);
      };
      const bound = {
        call: module.call,
        after: module.after_request,
        cleanState: module.clean_state,
        packagesReady: module.packages_ready,
        bytecodeSources: module.bytecode_sources,
        pyc: module.pyc,
        studentCalls: new Set(module.STUDENT_CALLS),
        roleCalls: (role) => names(module.role_calls(role)),
        snapshot: null, // taken just before the first request that runs student code
      };
      return bound;
    },
  );
  mark("livelab");
  const pycsNeeded = !pycs && Boolean(globalThis.caches) ? pycKey(manifest) : null;
  const courseModules = manifest.modules ?? [];
  return { pyodide, api, bootMs: performance.now() - started, phases, pycsNeeded, courseModules };
}
