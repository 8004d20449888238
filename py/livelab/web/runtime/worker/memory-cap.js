// The memory limit of a worker that runs student code, enforced while the memory grows.
//
// WebAssembly memory only grows, and one line of NumPy can ask for gigabytes: a doubling loop
// reaches 2 GB in about 3 s, well inside the time limit, and a phone ends the whole tab long
// before that. So every WebAssembly.Memory of this worker refuses to grow past MEMORY_LIMIT:
// Emscripten's heap resize catches the refusal and reports failure, malloc returns NULL and
// Python raises MemoryError at the limit, which the page explains (livelab.explain). The
// worker is replaced afterwards as for any large memory (livelab.worker_api.after_request).
//
// Imported first by every worker that runs student code (worker.js), so the limit is in place
// before Pyodide creates its memory. A restored snapshot creates its memory at the
// snapshot's size in one piece, not by growing, so restoring is not affected; its size is far
// below the limit anyway (about 60 MB).

/** Bytes a worker's WebAssembly memory may reach: livelab.worker_api.MEMORY_LIMIT. */
export const MEMORY_LIMIT = 512 * 2 ** 20;
const PAGE = 65_536;

/** What grow throws past the limit (Emscripten catches it: the allocation fails). */
export class MemoryLimit extends RangeError {
  constructor(bytes) {
    super(`memory limit: growing to ${bytes} bytes would pass ${MEMORY_LIMIT} bytes`);
    this.name = "MemoryLimit";
  }
}

let largest = null; // the largest memory that grew in this scope: the interpreter's

/**
 * Bytes of the largest WebAssembly memory that grew in this worker (0 before any grew):
 * livelab.worker_api.after_request replaces a worker whose memory grew past MEMORY_KEPT.
 * Read here rather than from Pyodide's internals (a memory restored from a snapshot is
 * made at its size, far below MEMORY_KEPT, so only growing can pass it).
 */
export const memoryBytes = () => largest?.buffer.byteLength ?? 0;

/** Make grow refuse to pass the limit on every WebAssembly.Memory of this global scope. */
export function capMemory(scope = globalThis) {
  const proto = scope.WebAssembly.Memory.prototype;
  const grow = proto.grow;
  if (grow.capped) return;
  const capped = function (delta) {
    const bytes = this.buffer.byteLength + Number(delta) * PAGE;
    if (bytes > MEMORY_LIMIT) throw new MemoryLimit(bytes);
    const before = grow.call(this, delta);
    if (this.buffer.byteLength > memoryBytes()) largest = this;
    return before;
  };
  capped.capped = true;
  // Not writable: student code that reaches JavaScript cannot put the original back.
  Object.defineProperty(proto, "grow", { value: capped, writable: false, configurable: false });
}

capMemory();
