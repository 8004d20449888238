// What livelab uses of Pyodide beyond its public API, in one module: an upgrade of Pyodide is
// this file's work. Each use has a way on when the Pyodide at hand lacks it, or it throws, and
// the boot report says which way was taken (worker/boot.js):
//
//   _loadSnapshot (a loadPyodide option)   restore a memory snapshot (shared/snapshot.js).
//       Missing: loadPyodide ignores the option and starts the normal way; wasRestored tells,
//       and the boot goes on with that interpreter and makes no snapshot again.
//       Throws: the snapshot is dropped and the interpreter starts the normal way.
//   _makeSnapshot (a loadPyodide option) and pyodide.makeMemorySnapshot()   make one.
//       Missing or throws: no snapshot is stored (the helper reports why); every visit then
//       starts the interpreter the normal way.
//   pyodide._api.lockfile_packages, .sitepackages, .loadDynlibsFromPackage   install NumPy
//       from files unzipped in JavaScript (shared/unpack.js installWheel).
//       Missing: wheelInstaller gives null and NumPy comes through pyodide.loadPackage.
//
// Tested by tests/js/pyodide-private.test.mjs (each way on, against stand-ins) and by
// tests/browser/test_startup.py (a Pyodide without any of them still boots and grades).

/** loadPyodide's options that restore the snapshot `bytes` (a promise of its bytes). */
export const restoreOptions = (bytes) => ({ _loadSnapshot: bytes });

/** loadPyodide's options for an interpreter whose memory will be copied (takeSnapshot). */
export const snapshotOptions = () => ({ _makeSnapshot: true });

// Set in the interpreter just before its memory is copied (takeSnapshot), so an interpreter
// restored from that copy has it and one that started the normal way has not.
const MARK = "_livelab_restored";

/**
 * The memory of `pyodide`, started with snapshotOptions, after running `code` in it (the
 * imports the snapshot should hold). Throws when this Pyodide cannot make one.
 */
export function takeSnapshot(pyodide, code) {
  if (typeof pyodide.makeMemorySnapshot !== "function") {
    throw new Error("this Pyodide cannot make a memory snapshot (no makeMemorySnapshot)");
  }
  pyodide.runPython(`${code}\nimport sys\nsys.${MARK} = True\ndel sys\n`);
  return pyodide.makeMemorySnapshot();
}

/** Whether `pyodide` came from a snapshot takeSnapshot made (false if it started afresh). */
export function wasRestored(pyodide) {
  try {
    return pyodide.runPython(`import sys\ngetattr(sys, "${MARK}", False)`) === true;
  } catch {
    return false;
  }
}

/**
 * What installing a package from its unzipped files takes of Pyodide's internals:
 * {entry(name), sitePackages, loadDynlibs(entry, paths)}, or null when this Pyodide lacks any
 * of it (then NumPy comes through pyodide.loadPackage).
 */
export function wheelInstaller(pyodide) {
  let api;
  try {
    api = pyodide._api;
  } catch {
    return null;
  }
  const usable =
    api &&
    typeof api.loadDynlibsFromPackage === "function" &&
    api.lockfile_packages &&
    typeof api.sitepackages === "string";
  if (!usable) return null;
  return {
    entry: (name) => api.lockfile_packages[name],
    sitePackages: api.sitepackages,
    loadDynlibs: (entry, paths) => api.loadDynlibsFromPackage(entry, paths),
  };
}
