// Counts the bytes of the runtime's large downloads as they arrive, for the page's loading
// line and for the client's stall timer (a boot that still receives bytes is not stuck).
//
// The worker routes every fetch through `fetch` below, Pyodide's own included (it calls the
// global fetch for pyodide.asm.wasm and python_stdlib.zip); NumPy's wheel, downloaded on a
// thread of its own, is counted from that thread's messages (`arrived`). A tracked file's
// response is handed on untouched, and a clone of it is read to count its bytes, so
// WebAssembly.instantiateStreaming still gets the real response. What is counted is what the
// body delivers, that is decoded bytes; so the total is the file's size as the build measured
// it (manifest.sizes), or Content-Length when the response is not compressed.

const REPORT_EVERY_MS = 100;
// The header of the service worker's answer for a file it keeps for offline use but has no
// good copy of, and could not download again: "damaged" or "missing" (sw.js `unavailable`).
const UNAVAILABLE = "X-Livelab-Unavailable";

/** The file's name, for a sentence: the last part of its address. */
export const fileName = (url) => new URL(url, globalThis.location?.href).pathname.split("/").pop();

/** What failed about a response that is not ok, or a fetch that failed: {file, damaged}. */
function failure(url, response) {
  return { file: fileName(url), damaged: response?.headers.get(UNAVAILABLE) === "damaged" };
}

/**
 * The server answered a file with an HTTP error status (404: it does not have it): the
 * connection works, so the page names the file rather than blame the network (stops.js).
 */
export class RefusedFile extends Error {
  constructor(url, status) {
    const path = new URL(url, globalThis.location?.href).pathname;
    super(`${path} answered ${status}`);
    this.path = path;
    this.status = status;
    this.failed = failure(url);
  }
}

/**
 * fetch (the worker's, so counted when tracked) that rejects on an HTTP error status (a
 * RefusedFile) or when it fails; the error's `failed` is {file, damaged} (see failure). The
 * service worker's answer for a file it has no good copy of offline is no refusal of the
 * server's: it rejects like a failed download, with `damaged` set when the copy was damaged.
 */
export async function fetchOk(url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    const failed = new Error(`${url} did not download (${err.message})`);
    throw Object.assign(failed, { failed: failure(url) });
  }
  if (response.ok) return response;
  if (!response.headers.get(UNAVAILABLE)) throw new RefusedFile(url, response.status);
  const failed = new Error(`${url} is not kept for offline use and did not download`);
  throw Object.assign(failed, { failed: failure(url, response) });
}

/**
 * After a download failed some other way (an import, or Pyodide's own fetch, which say no
 * status): the first of urls the server answers with an error status, as a RefusedFile, or
 * null when it has them all or does not answer (no connection). Asked past every cache, and
 * past the service worker, which passes on requests other than GET.
 */
export async function refusedOf(urls) {
  for (const url of urls) {
    try {
      const response = await fetch(url, { method: "HEAD", cache: "no-store" });
      if (!response.ok) return new RefusedFile(url, response.status);
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * A file from the browser's cache at once when it is there. Else `later()` is asked, and
 * the file comes from the network once that resolves to true (nothing when to false).
 * Resolves to {response, from: "cache" | "network"}, or null.
 */
export async function cachedOrLater(url, later) {
  try {
    const response = await fetchOk(url, { cache: "only-if-cached", mode: "same-origin" });
    return { response, from: "cache" };
  } catch {
    return (await later()) ? { response: await fetchOk(url), from: "network" } : null;
  }
}

export class Downloads {
  /**
   * @param {Object<string, number>} sizes  URL -> size in bytes of each file to track
   * @param {(loaded: number, total: number) => void} report  called at most every 100 ms,
   *   and once more when every tracked file is in
   */
  constructor(sizes, report) {
    this.files = new Map(Object.entries(sizes).map(([url, size]) => [url, { size, loaded: 0 }]));
    this.report = report;
    this.lastReport = 0;
    this.pending = null;
    this.originalFetch = globalThis.fetch.bind(globalThis);
    this.adopted = new Map(); // URL -> a fetch started before, tracked, handed out once
    this.failed = []; // {file, damaged} of each fetch that failed or was not ok, in order
    this.fetch = (input, init) => {
      const url = String(input.url ?? input);
      const adopted = this.adopted.get(url);
      this.adopted.delete(url);
      // A look into the browser's cache that finds nothing, or a question to the server
      // (refusedOf's HEAD), is no failed download.
      const asked = new URL(url, globalThis.location?.href).href;
      const method = (init?.method ?? input.method ?? "GET").toUpperCase();
      const href = init?.cache === "only-if-cached" || method !== "GET" ? null : asked;
      return adopted ?? this.track(this.originalFetch(input, init), href);
    };
  }

  /** Count a fetch of url that was started before, and answer the next fetch of url with it. */
  adopt(url, pending) {
    if (pending) this.adopted.set(url, this.track(pending, url));
  }

  get loaded() {
    let sum = 0;
    for (const file of this.files.values()) sum += Math.min(file.loaded, file.size || file.loaded);
    return sum;
  }

  get total() {
    let sum = 0;
    for (const file of this.files.values()) sum += file.size;
    return sum;
  }

  /** Whether every tracked file has arrived in full. */
  get done() {
    for (const file of this.files.values()) if (!file.complete) return false;
    return true;
  }

  /**
   * Resolves once these URLs' remaining bytes, plus `more` bytes, would arrive within
   * `withinMs` at the rate measured so far (or once they have all arrived). On a fast link
   * that is at once, so a file asked for afterwards downloads beside them; on a slow one it is
   * when they are nearly in, so they are not slowed down by it.
   */
  fastEnough(urls, more, withinMs) {
    const MEASURE_MS = 150; // the rate of the first moments is too unsteady to go by
    return new Promise((resolve) => {
      const check = () => {
        const files = urls.map((url) => this.files.get(url));
        const elapsed = this.firstByteAt === undefined ? 0 : performance.now() - this.firstByteAt;
        const rate = elapsed >= MEASURE_MS ? this.loaded / elapsed : 0; // bytes per ms
        const left = files.reduce((sum, f) => sum + (f ? Math.max(0, f.size - f.loaded) : 0), 0);
        const allIn = files.every((f) => f?.settled === true);
        if (allIn || (rate > 0 && (left + more) / rate <= withinMs)) resolve();
        else setTimeout(check, 50);
      };
      check();
    });
  }

  /**
   * Resolve like the fetch it wraps; count the body of a tracked, successful response. A fetch
   * of url (null: not counted as a failure) that fails or is not ok is noted in `failed`.
   */
  async track(pending, url) {
    let response;
    try {
      response = await pending;
    } catch (err) {
      if (url) this.failed.push(failure(url));
      throw err;
    }
    if (url && !response.ok) this.failed.push(failure(url, response));
    const file = this.files.get(response.url.split("?")[0]);
    if (!file || !response.ok || !response.body) return response;
    if (!file.size && !response.headers.get("Content-Encoding")) {
      file.size = Number(response.headers.get("Content-Length")) || 0;
    }
    file.settled = false;
    this.count(file, response.clone().body.getReader());
    return response;
  }

  /** Count the bytes of a tracked file that another thread downloads (wheel-worker.js). */
  arrived(url, loaded, complete) {
    const file = this.files.get(url);
    if (!file) return;
    this.firstByteAt ??= performance.now();
    if (loaded > file.loaded) file.loaded = loaded;
    if (complete) {
      file.complete = file.settled = true;
      if (!file.size) file.size = loaded;
    }
    this.changed(complete);
  }

  async count(file, reader) {
    // Each fetch of a file counts from zero (a retry, or Pyodide asking again for a file we
    // prefetched); the file's progress is the furthest any of them got.
    let received = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        this.firstByteAt ??= performance.now();
        if (received > file.loaded) file.loaded = received;
        this.changed();
      }
      file.complete = true;
      if (!file.size) file.size = received;
      this.changed(true);
    } catch {
      // The fetch failed or was cancelled; whoever awaits the response reports the failure.
    } finally {
      file.settled = true;
    }
  }

  changed(now = false) {
    const since = performance.now() - this.lastReport;
    if (now || this.done || since >= REPORT_EVERY_MS) {
      clearTimeout(this.pending);
      this.pending = null;
      this.lastReport = performance.now();
      this.report(this.loaded, this.total);
    } else if (!this.pending) {
      this.pending = setTimeout(() => this.changed(true), REPORT_EVERY_MS - since);
    }
  }
}
