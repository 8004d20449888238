// Pyodide's private API (runtime/shared/pyodide-private.js): each use against a stand-in
// Pyodide that has it, lacks it, or throws, and the way on the module promises for each.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  restoreOptions, snapshotOptions, takeSnapshot, wasRestored, wheelInstaller,
} from "../../py/livelab/web/runtime/shared/pyodide-private.js";
import { canInstallWheel, installWheel } from "../../py/livelab/web/runtime/shared/unpack.js";

/** A stand-in interpreter: runPython keeps what `sys.<name> = True` set, and answers the
 * getattr that wasRestored asks. */
function interpreter(extra = {}) {
  const sys = new Set();
  return {
    ran: [],
    runPython(code) {
      this.ran.push(code);
      for (const [, name] of code.matchAll(/sys\.(\w+) = True/g)) sys.add(name);
      const asked = code.match(/getattr\(sys, "(\w+)", False\)/);
      return asked ? sys.has(asked[1]) : undefined;
    },
    ...extra,
  };
}

test("the options name Pyodide's private loadPyodide options", () => {
  const bytes = Promise.resolve(new Uint8Array(1));
  assert.deepEqual(restoreOptions(bytes), { _loadSnapshot: bytes });
  assert.deepEqual(snapshotOptions(), { _makeSnapshot: true });
});

test("a snapshot marks the interpreter, so a restore from it is told from a fresh start", () => {
  const made = interpreter({ makeMemorySnapshot: () => new Uint8Array([1, 2, 3]) });
  assert.deepEqual(takeSnapshot(made, "import json"), new Uint8Array([1, 2, 3]));
  assert.match(made.ran[0], /^import json\n/);
  assert.equal(wasRestored(made), true); // the restored copy has what the original had
  assert.equal(wasRestored(interpreter()), false); // _loadSnapshot ignored: a fresh start
});

test("a Pyodide that cannot make a snapshot says so, and runs nothing", () => {
  const old = interpreter();
  assert.throws(() => takeSnapshot(old, "import json"), /cannot make a memory snapshot/);
  assert.deepEqual(old.ran, []);
});

test("an interpreter whose runPython throws counts as not restored", () => {
  const broken = interpreter({
    runPython() {
      throw new Error("fatal");
    },
  });
  assert.equal(wasRestored(broken), false);
});

test("the wheel's install takes Pyodide's internals only when all of them are there", () => {
  const loaded = [];
  const api = {
    lockfile_packages: { numpy: { file_name: "numpy.whl", sha256: "ab" } },
    sitepackages: "/lib/python3.12/site-packages",
    loadDynlibsFromPackage: async (entry, paths) => loaded.push([entry.file_name, paths]),
  };
  const internals = wheelInstaller({ _api: api });
  assert.equal(internals.sitePackages, "/lib/python3.12/site-packages");
  assert.equal(internals.entry("numpy").sha256, "ab");
  return internals.loadDynlibs(api.lockfile_packages.numpy, ["/a.so"]).then(() => {
    assert.deepEqual(loaded, [["numpy.whl", ["/a.so"]]]);
  });
});

test("without any one of them, NumPy comes through loadPackage instead", async () => {
  const full = {
    lockfile_packages: {},
    sitepackages: "/site",
    loadDynlibsFromPackage: async () => {},
  };
  const lacking = [
    {},
    { _api: null },
    { _api: { ...full, loadDynlibsFromPackage: undefined } },
    { _api: { ...full, lockfile_packages: undefined } },
    { _api: { ...full, sitepackages: undefined } },
    Object.defineProperty({}, "_api", {
      get() {
        throw new Error("private");
      },
    }),
  ];
  for (const pyodide of lacking) {
    assert.equal(wheelInstaller(pyodide), null);
    assert.equal(canInstallWheel(pyodide), false);
    await assert.rejects(installWheel(pyodide, "numpy", null, []), /cannot install a wheel/);
  }
  assert.equal(canInstallWheel({ _api: full }), true);
});
