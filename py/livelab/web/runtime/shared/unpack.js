// Zip archives unpacked in JavaScript, for the NumPy wheel and our package.
//
// Pyodide unpacks archives with Python's zipfile; after a snapshot restore the interpreter's
// WebAssembly has not warmed up yet, and that took longer than restoring the snapshot. Here
// the browser inflates the entries (DecompressionStream, native code) while the interpreter
// starts, and the files are written into Pyodide's file system once it is up.

import { wheelInstaller } from "./pyodide-private.js";

// Files of a wheel that Python never reads at run time: type stubs, C headers and sources,
// Cython declarations, static libraries.
const NOT_NEEDED = /\.(pyi|h|c|pxd|a)$/;

/** Where our package and a course's modules are unpacked in Pyodide's file system. */
export const PACKAGE_DIR = "/opt/livelab";

const ZIP_END = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;

/** The entries of a zip archive: {name, method, raw} (raw: the stored bytes). */
function* entries(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22; // the end record, found from the back (a comment may follow)
  while (end >= 0 && view.getUint32(end, true) !== ZIP_END) end--;
  if (end < 0) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL_ENTRY) throw new Error("damaged zip directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    yield { name, method, raw: bytes.subarray(start, start + size) };
  }
}

async function inflate({ method, raw }) {
  if (method === 0) return raw;
  if (method !== 8) throw new Error(`zip compression method ${method} is not supported`);
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The files of a zip archive, inflated: [[path, bytes]] in archive order, minus NOT_NEEDED. */
export async function unzip(buffer) {
  const wanted = [...entries(buffer)].filter((e) => !e.name.endsWith("/") && !NOT_NEEDED.test(e.name));
  const data = await Promise.all(wanted.map(inflate));
  return wanted.map((entry, i) => [entry.name, data[i]]);
}

/** Write unzipped files under dir in Pyodide's file system. */
export function writeFiles(FS, dir, files) {
  for (const [name, data] of files) {
    const path = `${dir}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data, { canOwn: true });
  }
}

/** The SHA-256 of the bytes, in hex. */
export async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Make the import system see the new files: the finders of the file system's folders forget
// their cached listings. Not importlib.invalidate_caches(), which pyodide.loadPackage calls:
// it also has the standard library's zipimporter re-read python312.zip's directory in pure
// Python, which took 200 to 300 ms right after a snapshot restore.
const FORGET_LISTINGS = `
import sys, zipimport
_finder = None
for _finder in list(sys.path_importer_cache.values()):
    if hasattr(_finder, "invalidate_caches") and not isinstance(_finder, zipimport.zipimporter):
        _finder.invalidate_caches()
_metadata = sys.modules.get("importlib.metadata")
if _metadata is not None:
    _metadata.MetadataPathFinder.invalidate_caches()
del sys, zipimport, _finder, _metadata
`;

/**
 * A wheel's files and hash: {files, sha256, error}, files as unzip gives them, or null when
 * the wheel did not unzip (error says why; installWheel checks the hash first, which then
 * tells better what is wrong).
 */
export async function unzipWheel(wheel) {
  const hash = sha256(wheel);
  try {
    return { files: await unzip(wheel), sha256: await hash };
  } catch (err) {
    return { files: null, sha256: await hash, error: String(err.message ?? err) };
  }
}

/** Whether this Pyodide has the internals installWheel uses (else use loadPackage). */
export const canInstallWheel = (pyodide) => wheelInstaller(pyodide) !== null;

/**
 * Install a package of Pyodide's lock file from its wheel, as pyodide.loadPackage does:
 * the wheel's SHA-256 must be the lock file's, its files go to site-packages, its .so files
 * are loaded in archive order, and the package is recorded as loaded. `files` is
 * unzip(wheel), made while the interpreter started (null when it failed, and unzipError
 * says why); wheelHash is the SHA-256 of that wheel, or null when the files come from a
 * store that checked its own hash (numpy.js).
 */
export async function installWheel(pyodide, name, wheelHash, files, unzipError) {
  const internals = wheelInstaller(pyodide);
  if (!internals) throw new Error("this Pyodide cannot install a wheel from its files");
  const entry = internals.entry(name);
  if (!entry) throw new Error(`${name} is not in pyodide-lock.json`);
  // err.damaged: the wheel's bytes are not the ones the lock file names
  const damaged = (message) => Object.assign(new Error(message), { damaged: true });
  if (wheelHash !== null && wheelHash !== entry.sha256) {
    throw damaged(`${entry.file_name} does not match the sha256 in pyodide-lock.json`);
  }
  if (!files) throw damaged(`${entry.file_name} did not unzip: ${unzipError}`);
  const root = internals.sitePackages;
  writeFiles(pyodide.FS, root, files);
  const dynlibs = files.filter(([path]) => path.endsWith(".so")).map(([path]) => `${root}/${path}`);
  await internals.loadDynlibs(entry, dynlibs);
  pyodide.loadedPackages[name] = "default channel";
  pyodide.runPython(FORGET_LISTINGS);
}

/** Make the unpacked package read-only, so a line of student code cannot rewrite it. */
export function protect(FS, path) {
  const { mode } = FS.stat(path);
  if (FS.isDir(mode)) {
    for (const name of FS.readdir(path)) {
      if (name !== "." && name !== "..") protect(FS, `${path}/${name}`);
    }
    FS.chmod(path, 0o555);
  } else {
    FS.chmod(path, 0o444);
  }
}

/** Whether a file of the package (a path under PACKAGE_DIR, or a .pyc's absolute path) is
 * livelab's engine or outside the package (NumPy's); the rest is the course's. */
const ENGINE_PREFIX = `${PACKAGE_DIR}/livelab/`;
export const engineOnly = (path) =>
  path.startsWith("/") ? !path.startsWith(`${PACKAGE_DIR}/`) || path.startsWith(ENGINE_PREFIX)
    : path.startsWith("livelab/");
