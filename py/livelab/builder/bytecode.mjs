// The .pyc files a browser would compile on its first visit, made at build time under Node by
// the same Pyodide (so the same Python 3.12 and the same paths): livelab.builder.bytecode runs
// it. NumPy is installed from the verified wheel and our package unpacked exactly as the
// worker does it (runtime/shared/unpack.js), the worker's own warm-up runs (clean_state imports what
// any call can reach), and livelab.worker_api lists and compiles the sources, as after a
// first visit (runtime/worker/pycache.js). The files are written in the layout of stored.js.
// Then Pyodide's python_stdlib.zip is written again with every module imported by then as
// bytecode (stdlib_pyc.py), to <stdlib out>, and the standard modules imported since Pyodide's
// own start (the memory snapshot's preload, runtime/shared/snapshot.js) to <preload out>.
//
// node bytecode.mjs <pyodide dir> <numpy wheel> <package archive> <modules JSON> <out file>
//   <stdlib out> <preload out>

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { packFiles } from "../web/runtime/shared/stored.js";
import { installWheel, PACKAGE_DIR, sha256, unzip, writeFiles } from "../web/runtime/shared/unpack.js";

const [pyodideDir, wheelPath, archivePath, modulesJson, outPath, stdlibPath, preloadPath] =
  process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: () => {}, stderr: () => {} });
const started = pyodide.runPython("import sys\nfrozenset(sys.modules)"); // a Python set

const wheel = readFileSync(wheelPath);
const wheelBytes = wheel.buffer.slice(wheel.byteOffset, wheel.byteOffset + wheel.byteLength);
await installWheel(pyodide, "numpy", await sha256(wheelBytes), await unzip(wheelBytes));
writeFiles(pyodide.FS, PACKAGE_DIR, await unzip(readFileSync(archivePath)));
pyodide.pyimport("sys").path.insert(0, PACKAGE_DIR);
const api = pyodide.pyimport("livelab.worker_api");
for (const name of JSON.parse(modulesJson)) pyodide.pyimport(name);
api.clean_state(PACKAGE_DIR);

const files = [];
for (const path of api.bytecode_sources(PACKAGE_DIR).toJs()) {
  const [where, data] = api.pyc(path).toJs();
  files.push([where, data]);
}
writeFileSync(outPath, packFiles(files));

const STDLIB = "/lib/python312.zip";
const stdlib = new URL("stdlib_pyc.py", import.meta.url);
const namespace = pyodide.toPy({ __name__: "stdlib_pyc" });
pyodide.runPython(readFileSync(stdlib, "utf8"), { globals: namespace });
const preload = namespace.get("preload")(STDLIB, started).toJs(); // before write_zip's imports
writeFileSync(preloadPath, JSON.stringify(preload));
const stdlibPycs = namespace.get("write_zip")(STDLIB, "/tmp/stdlib.zip");
writeFileSync(stdlibPath, pyodide.FS.readFile("/tmp/stdlib.zip"));
console.log(JSON.stringify({ files: files.length, stdlib: stdlibPycs, preload: preload.length }));
