// NumPy's files for the worker's file system: on a return visit from the store that the first
// boot left in Cache Storage (no wheel to read, nothing to inflate: the worker's thread stays
// free while the interpreter is restored); else unzipped from the wheel (unpack.js).
//
// The wheel itself: on a return visit without a store it is in the browser's cache and is
// read at once; otherwise it downloads beside the interpreter's own files when the link is
// fast enough to bring both in about a second, and after them when it is not, so that on a
// slow link the interpreter starts while the wheel downloads. phases.wheel says
// where the files came from: "stored", "cache" or "network"; phases.unzipped when they were
// ready; phases.numpyError why a stored copy was not used.
//
// The store is checked like the snapshot (stored.js): the key of the runtime and the package,
// and the SHA-256 of its bytes; another key or damaged bytes drop it, and the wheel is used.

import { fetchOk } from "./downloads.js";
import { snapshotKey } from "./snapshot.js";
import { packFiles, storedEntry, unpackFiles } from "./stored.js";
import { unzip } from "./unpack.js";

const FORMAT = 1; // bump when what unzip keeps changes
const WHEEL_WAIT_MS = 15_000; // at most: a stalled runtime download must not hold NumPy back
const WHEEL_BUDGET_MS = 1_000; // about what the interpreter takes to start once its files are in
const stored = storedEntry("numpy.bin", "the stored NumPy files");
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Start getting NumPy's files. Returns {wheel, files}: wheel resolves to the wheel's bytes,
 * or null when the files came from the store; files to [[path, bytes]].
 */
export function numpyFiles({ manifest, indexURL, first, downloads, phases, mark, useStore }) {
  const found = (useStore ? stored.load(storeKey(manifest)) : Promise.resolve(null))
    .then((bytes) => bytes && unpackFiles(bytes))
    .catch(async (err) => {
      phases.numpyError = String(err.message ?? err);
      await stored.drop().catch(() => {});
      return null;
    });
  const wheel = found.then((files) =>
    files ? null : fetchWheel(manifest, indexURL, first, downloads, phases),
  );
  const files = found.then(async (storedFiles) => {
    if (storedFiles) phases.wheel = "stored";
    const unzipped = storedFiles ?? (await unzip(await wheel));
    mark("unzipped");
    return unzipped;
  });
  return { wheel, files };
}

async function fetchWheel(manifest, indexURL, first, downloads, phases) {
  const url = new URL(manifest.numpy, indexURL);
  let response;
  try {
    response = await fetchOk(url, { cache: "only-if-cached", mode: "same-origin" });
    phases.wheel = "cache";
  } catch {
    // On a fast link (the wheel and what is left of the runtime's files would be in within
    // WHEEL_BUDGET_MS) the wheel downloads beside them at once; on a slow one it waits until
    // they are nearly in, so the interpreter starts while the wheel arrives.
    const wheelSize = manifest.sizes?.[manifest.pyodide + manifest.numpy] ?? 0;
    await Promise.race([
      downloads.fastEnough(first, wheelSize, WHEEL_BUDGET_MS),
      delay(WHEEL_WAIT_MS),
    ]);
    phases.wheel = "network";
    response = await fetchOk(url);
  }
  return response.arrayBuffer();
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
