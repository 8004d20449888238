// A memory snapshot of the Python interpreter, made in the browser after the first boot and
// restored on later boots: restoring skips the interpreter's start-up (the slowest part of a
// warm boot) and the imports of the standard modules a visit needs (manifest.json's preload).
//
// What it holds: the interpreter as Pyodide starts it, plus the pure-Python standard library
// modules that NumPy, Pyodide's package loader and our package import. What it must not hold,
// and why: NumPy or any other module built from a .so file (Pyodide cannot restore loaded
// binary libraries: the WebAssembly table entries and instances live outside the memory that
// the snapshot copies); our package (its files live in the file system, which is not part of
// the snapshot, and it changes more often than the runtime); open files and JavaScript
// objects. The random module's state is in it, so the worker reseeds it after a restore.
//
// It is stored in Cache Storage without its zero pages (zero-pages.js) under one fixed
// address, with the key of the runtime and the package it was made for and the SHA-256 of
// the stored bytes; a snapshot with another key or other bytes is dropped, and the worker
// boots the normal way and makes a new one.

import { takeSnapshot } from "./pyodide-private.js";
import { storedEntry } from "./stored.js";
import { expand, squeeze } from "./zero-pages.js";

// Bump when what is done after a restore or the layout changes. The preload list is not in
// the key: it changes with the runtime, the wheel or the archive, which are, and a snapshot
// made with another list still restores correctly (a module it lacks is imported later).
const FORMAT = 5;
const stored = storedEntry("snapshot.bin", "the snapshot");

// The standard modules to import before the copy: those a worker imports (NumPy, our package,
// the course's modules, clean_state) beyond Pyodide's own start, listed by the build, which
// runs that warm-up under Node (builder/bytecode.mjs, stdlib_pyc.preload) and writes them into
// manifest.json's preload. A build without Node lists none: the snapshot then holds Pyodide's
// start alone. tests/browser/test_startup.py checks that nothing a visit imports is missing.
// Imports what it can: a module missing from a later Pyodide only costs its import later.
const preloadCode = (preload) => `
import importlib
for _name in ${JSON.stringify(preload)}:
    try:
        importlib.import_module(_name)
    except Exception:
        pass
del _name, importlib
`;

// Run after a restore: the snapshot's random state is the same in every tab, so reseed it;
// and note which modules came from the snapshot (tests check the preload is complete).
export const AFTER_RESTORE_CODE = `
import random, sys
random.seed()
sys._livelab_from_snapshot = frozenset(sys.modules)
del random, sys
`;

/** The key a snapshot is valid for: this format, the runtime and the package (by hash). */
export function snapshotKey(manifest) {
  return [FORMAT, manifest.runtime ?? manifest.pyodide, manifest.numpy, manifest.archive].join("/");
}

/**
 * The stored snapshot for this key: null when there is none, else {bytes}, a promise of its
 * checked bytes, so the interpreter's own files load while they are read. Rejects (or bytes
 * rejects) when the snapshot is for another key or its bytes are damaged (the caller drops it).
 */
export async function findSnapshot(key) {
  const found = await stored.find(key);
  return found && { bytes: found.bytes.then(expand) };
}

/** Forget the stored snapshot (it failed, or is for another version). */
export const dropSnapshot = () => stored.drop();

/** Store a snapshot for this key, replacing any other, without its zero pages (zero-pages.js);
 * resolves to the bytes stored. */
export async function storeSnapshot(key, bytes) {
  const squeezed = squeeze(bytes);
  await stored.store(key, squeezed);
  return squeezed.byteLength;
}

/**
 * Import the preload (manifest.json's, a list of module names) into an interpreter booted with
 * snapshotOptions (pyodide-private.js) and copy its memory. The interpreter goes on working
 * afterwards: making the copy only reads the memory.
 */
export const makeSnapshot = (pyodide, preload) => takeSnapshot(pyodide, preloadCode(preload));
