// Compiled bytecode (.pyc files) of NumPy's and our package's modules, made after the first
// boot and written back into the file system on later boots, before those modules are
// imported. Pyodide writes no .pyc files and NumPy's wheel ships only sources, so without
// them every boot compiles the same sources again (most of the import time after a restore).
//
// The .pyc files are hash-based and checked (livelab.worker_api.pyc): Python ignores one
// whose source changed, and unpacking does not make them stale the way an mtime would. They
// are stored in one Cache Storage entry beside the snapshot, with the key of the runtime and
// the package and the SHA-256 of the bytes; another key or damaged bytes drop the entry, and
// the modules are compiled from their sources as before.
//
// The entry holds the files as stored.js's packFiles lays them out.
//
// A build that could run Node made the same files already (livelab.builder.bytecode), so that a
// first visit compiles nothing either: manifest.bytecode names that file (packFiles' layout,
// gzipped: its CRC checks the bytes). A boot takes it when the browser has it, or when the
// link is fast enough for it to arrive before the interpreter is up; on a slower link the
// modules compile as before (less time than the download), and the worker stores them.

import { cachedOrLater } from "../shared/downloads.js";
import { snapshotKey } from "../shared/snapshot.js";
import { packFiles, storedEntry, unpackFiles } from "../shared/stored.js";

const ASSETS = new URL("../../", import.meta.url);
const BYTECODE_BUDGET_MS = 1_000; // about what the interpreter takes to start once its files are in

const FORMAT = 1; // bump when the format or what is compiled changes
const stored = storedEntry("pycache.bin", "the .pyc store");
const SLICE_MS = 30; // compile for at most this long, then let requests through

/** The key a store is valid for: this format, the runtime and the package. */
export function pycKey(manifest) {
  return `pyc${FORMAT}/${snapshotKey(manifest)}`;
}

/** The stored .pyc files as [[path, bytes]], or null; rejects when the store is not usable. */
export async function loadPycs(key) {
  const bytes = await stored.load(key);
  return bytes && unpackFiles(bytes);
}

/**
 * The build's .pyc files (manifest.bytecode) as [[path, bytes]], or null when the build made
 * none or the link is too slow for them to come before `pythonUp` (the interpreter's start);
 * rejects when the file is damaged. `first` are the URLs of the interpreter's own downloads.
 */
export async function builtPycs({ manifest, downloads, first, pythonUp }) {
  if (!manifest.bytecode) return null;
  const url = new URL(manifest.bytecode.file, ASSETS);
  // Not fetched when it could not come before the interpreter is up.
  const soonEnough = () => {
    const fast = downloads.fastEnough(first, manifest.bytecode.size, BYTECODE_BUDGET_MS);
    return Promise.race([fast.then(() => true), pythonUp.then(() => false, () => false)]);
  };
  const got = await cachedOrLater(url, soonEnough);
  if (!got) return null;
  const unzipped = got.response.body.pipeThrough(new DecompressionStream("gzip"));
  return unpackFiles(new Uint8Array(await new Response(unzipped).arrayBuffer()));
}

/** Forget the stored .pyc files. */
export const dropPycs = () => stored.drop();

/** Write .pyc files into Pyodide's file system; returns how many. */
export function writePycs(FS, files) {
  for (const [path, data] of files) {
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
  return files.length;
}

/**
 * Compile the .pyc files with api.bytecodeSources and api.pyc (livelab.worker_api), a slice
 * at a time so requests are answered in between. Resolves to [[path, bytes]], or to null when
 * `stop()` turned true on the way (student code ran: what it compiled is not trusted).
 */
export async function makePycs(api, packageDir, stop) {
  const list = api.bytecodeSources(packageDir);
  const sources = list.toJs();
  list.destroy();
  const files = [];
  while (files.length < sources.length) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (stop()) return null;
    const sliceEnd = performance.now() + SLICE_MS;
    while (files.length < sources.length && performance.now() < sliceEnd) {
      const made = api.pyc(sources[files.length]);
      const [path, data] = made.toJs();
      made.destroy();
      files.push([path, data]);
    }
  }
  return files;
}

/** Store .pyc files for this key, replacing any others; resolves to {files, bytes, ms}. */
export async function storePycs(key, files) {
  const started = performance.now();
  const bytes = packFiles(files);
  await stored.store(key, bytes);
  return { files: files.length, bytes: bytes.byteLength, ms: Math.round(performance.now() - started) };
}
