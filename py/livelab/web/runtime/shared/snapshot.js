// A memory snapshot of the Python interpreter, made in the browser after the first boot and
// restored on later boots: restoring skips the interpreter's start-up (the slowest part of a
// warm boot) and the imports listed in PRELOAD.
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

const FORMAT = 5; // bump when PRELOAD, what is done after a restore or the layout changes
const stored = storedEntry("snapshot.bin", "the snapshot");

// Found by listing sys.modules in a worker that booted the normal way, loaded NumPy, imported
// livelab.worker_api and ran clean_state: every standard module it had that Pyodide's own
// start had not imported. tests/browser/test_startup.py checks the list is still complete.
export const PRELOAD = [
  "__future__", "_blake2", "_compat_pickle", "_csv", "_ctypes", "_datetime", "_json", "_md5",
  "_pickle", "_sha1", "_sha3", "base64", "calendar", "csv", "ctypes", "ctypes._endian",
  "dataclasses", "datetime", "difflib", "email", "email._encoded_words", "email._parseaddr",
  "email._policybase", "email.base64mime", "email.charset", "email.encoders", "email.errors",
  "email.header", "email.iterators", "email.message", "email.quoprimime", "email.utils",
  "encodings.cp437", "hashlib", "hmac", "html", "html.entities", "importlib.metadata",
  "importlib.metadata._adapters", "importlib.metadata._collections",
  "importlib.metadata._functools", "importlib.metadata._itertools", "importlib.metadata._meta",
  "importlib.metadata._text", "json", "json.decoder", "json.encoder", "json.scanner", "numbers",
  "pickle", "pkgutil", "platform", "pydoc", "quopri", "secrets", "sysconfig", "tarfile",
  "_sysconfigdata__emscripten_wasm32-emscripten",
];

// Imports what it can: a module missing from a later Pyodide only costs its import later.
const PRELOAD_CODE = `
import importlib
for _name in ${JSON.stringify(PRELOAD)}:
    try:
        importlib.import_module(_name)
    except Exception:
        pass
del _name, importlib
`;

// Run after a restore: the snapshot's random state is the same in every tab, so reseed it;
// and note which modules came from the snapshot (tests check PRELOAD is complete).
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
 * Import PRELOAD into an interpreter booted with snapshotOptions (pyodide-private.js) and copy
 * its memory. The interpreter goes on working afterwards: making the copy only reads the memory.
 */
export const makeSnapshot = (pyodide) => takeSnapshot(pyodide, PRELOAD_CODE);
