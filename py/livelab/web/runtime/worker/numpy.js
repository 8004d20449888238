// NumPy's files for the worker's file system: on a return visit from the store that the first
// boot left in Cache Storage (no wheel to read, nothing to inflate: the worker's thread stays
// free while the interpreter is restored); else unzipped from the wheel (unpack.js).
//
// The wheel itself: on a return visit without a store it is in the browser's cache and is
// read at once; otherwise it downloads beside the interpreter's own files when the link is
// fast enough to bring both in about a second, and after them when it is not, so that on a
// slow link the interpreter starts while the wheel downloads. It is downloaded, hashed and
// unzipped by wheel-worker.js, on a thread of its own: this worker's thread is held while
// the interpreter starts. phases.wheel says where the files came from: "stored", "cache" or
// "network"; phases.wheelThread which thread got the wheel ("helper", or "worker" when the
// helper could not start or is not used in this browser, see HELPER_WORKS);
// phases.unzipped when they were ready; phases.numpyError why a stored copy was not used.
//
// The store is checked like the snapshot (stored.js): the key of the runtime and the package,
// and the SHA-256 of its bytes; another key or damaged bytes drop it, and the wheel is used.

import { cachedOrLater, fetchOk } from "../shared/downloads.js";
import { CHROMIUM } from "../shared/engine.js";
import { snapshotKey } from "../shared/snapshot.js";
import { packFiles, storedEntry, unpackFiles } from "../shared/stored.js";
import { unzipWheel } from "../shared/unpack.js";

const FORMAT = 1; // bump when what unzip keeps changes
const WHEEL_WAIT_MS = 15_000; // at most: a stalled runtime download must not hold NumPy back
const WHEEL_BUDGET_MS = 1_000; // about what the interpreter takes to start once its files are in
const stored = storedEntry("numpy.bin", "the stored NumPy files");
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// The wheel's helper worker while it works: Firefox may end a worker whose Worker object
// nothing refers to any more, and then its files never come.
let helper = null;
// Where the helper is used: Chromium (engine.js). In the cross-engine suite WebKitGTK hung or
// lost its session in 2 of 4 runs with it (never without), and Firefox needed the line
// above; elsewhere this worker gets the wheel itself.
const HELPER_WORKS = CHROMIUM;

/**
 * Start getting NumPy's files. Resolves to {files, sha256, error}: files as [[path, bytes]]
 * (null when the wheel did not unzip, and error says why), and the wheel's SHA-256 for
 * installWheel to check first, or null when the files came from the store.
 */
export function numpyFiles({ manifest, indexURL, first, downloads, phases, mark, useStore }) {
  const found = (useStore ? stored.load(storeKey(manifest)) : Promise.resolve(null))
    .then((bytes) => bytes && unpackFiles(bytes))
    .catch(async (err) => {
      phases.numpyError = String(err.message ?? err);
      await stored.drop().catch(() => {});
      return null;
    });
  return found.then(async (files) => {
    if (files) phases.wheel = "stored";
    const numpy = files
      ? { files, sha256: null }
      : await fromWheel(manifest, indexURL, first, downloads, phases);
    mark("unzipped");
    return numpy;
  });
}

/**
 * When the wheel may download: on a fast link (it and what is left of the runtime's files
 * would be in within WHEEL_BUDGET_MS) at once, beside them; on a slow one once they are
 * nearly in, so the interpreter starts while the wheel arrives.
 */
function downloadTime(manifest, first, downloads) {
  const wheelSize = manifest.sizes?.[manifest.pyodide + manifest.numpy] ?? 0;
  return Promise.race([
    downloads.fastEnough(first, wheelSize, WHEEL_BUDGET_MS),
    delay(WHEEL_WAIT_MS),
  ]).then(() => true);
}

/**
 * The wheel's files, got by wheel-worker.js on a thread of its own; on this thread when that
 * worker cannot start (phases.wheelThread says which).
 */
function fromWheel(manifest, indexURL, first, downloads, phases) {
  const url = new URL(manifest.numpy, indexURL).href;
  return new Promise((resolve, reject) => {
    // One wait, shared by the helper's "go" and this thread's fallback if the helper fails.
    let allowed = null;
    const later = () => (allowed ??= downloadTime(manifest, first, downloads));
    const onThisThread = () => {
      phases.wheelThread = "worker";
      resolve(wheelHere(url, later, phases));
    };
    if (!HELPER_WORKS) {
      onThisThread();
      return;
    }
    try {
      const script = new URL("../helper/wheel-worker.js", import.meta.url);
      helper = new Worker(script, { type: "module", name: "livelab-wheel" });
    } catch {
      onThisThread();
      return;
    }
    phases.wheelThread = "helper";
    helper.onmessage = ({ data }) => {
      if (data.type === "progress") {
        downloads.arrived(url, data.loaded, data.complete);
        return;
      }
      helper.terminate();
      helper = null;
      if (data.type === "files") {
        phases.wheel = data.from;
        resolve({ files: data.files, sha256: data.sha256, error: data.error });
      } else {
        reject(new Error(data.message));
      }
    };
    // Its script did not load, or it failed before it could say why.
    helper.onerror = (event) => {
      event.preventDefault();
      helper.terminate();
      helper = null;
      onThisThread();
    };
    helper.postMessage({ type: "start", url });
    later().then(() => helper?.postMessage({ type: "go" }));
  });
}

/** The wheel's files, downloaded and unzipped on this thread. */
async function wheelHere(url, later, phases) {
  const { response, from } = await cachedOrLater(url, later);
  phases.wheel = from;
  return unzipWheel(await response.arrayBuffer());
}

/**
 * The wheel downloaded again on this thread, past the browser's cache: the copy that cache
 * gave was damaged (it keeps what a failed download brought, and Retry would read it again).
 */
export async function wheelAgain(manifest, indexURL, phases) {
  phases.wheel = "network";
  phases.wheelThread = "worker";
  const response = await fetchOk(new URL(manifest.numpy, indexURL), { cache: "reload" });
  return unzipWheel(await response.arrayBuffer());
}

function storeKey(manifest) {
  return `numpy${FORMAT}/${snapshotKey(manifest)}`;
}

/**
 * Store NumPy's files for the next boot. They are copied into one buffer here, at once, so
 * that nothing run later in the file system can change what is stored; the hashing and the
 * write go on in the background. Resolves to {bytes, ms}.
 */
export function storeNumpyFiles(manifest, files) {
  const started = performance.now();
  const bytes = packFiles(files);
  return stored.store(storeKey(manifest), bytes).then(() => ({
    bytes: bytes.byteLength,
    ms: Math.round(performance.now() - started),
  }));
}
