// NumPy's wheel on a thread of its own: downloaded, hashed and unzipped here, started by the
// Pyodide worker (numpy.js) when no earlier boot stored NumPy's files.
//
// On a first visit the Pyodide worker's thread is held for seconds while the interpreter
// starts. A download it reads itself stalls meanwhile (nothing takes the body's bytes), and
// its ~800 entries were then inflated on that thread after the start. Here both go on while
// the interpreter starts, and the files are handed over (transferred, not copied) at the end.
//
// In:  {type: "start", url}  read the wheel from the browser's cache at once if it is there,
//                            else wait for "go"
//      {type: "go"}          download it (the Pyodide worker decides when: downloads.js)
// Out: {type: "progress", loaded, complete}   bytes of the wheel so far, at most every 100 ms
//      {type: "files", files, sha256, from}   [[path, bytes]] (unpack.js unzip), the wheel's
//                                             SHA-256 in hex, and "cache" or "network";
//                                             files null and error set when it did not unzip
//      {type: "error", message}

import { cachedOrLater } from "../shared/downloads.js";
import { unzipWheel } from "../shared/unpack.js";

const REPORT_EVERY_MS = 100;
let go;
const allowed = new Promise((resolve) => (go = () => resolve(true)));

/** The body's bytes, with progress messages while they arrive. */
async function read(response) {
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  let reportedAt = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (performance.now() - reportedAt >= REPORT_EVERY_MS) {
      reportedAt = performance.now();
      postMessage({ type: "progress", loaded, complete: false });
    }
  }
  postMessage({ type: "progress", loaded, complete: true });
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.buffer;
}

async function wheelFiles(url) {
  const { response, from } = await cachedOrLater(url, () => allowed);
  const { files, sha256, error } = await unzipWheel(await read(response));
  // Each file's bytes are handed over, not copied; stored entries share the wheel's buffer.
  const buffers = new Set((files ?? []).map(([, data]) => data.buffer));
  postMessage({ type: "files", files, sha256, from, error }, [...buffers]);
}

self.onmessage = ({ data }) => {
  if (data.type === "go") go();
  if (data.type !== "start") return;
  wheelFiles(new URL(data.url)).catch((err) => {
    postMessage({ type: "error", message: String(err?.message ?? err) });
  });
};
