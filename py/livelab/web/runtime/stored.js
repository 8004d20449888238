// One checked entry of the worker's Cache Storage: bytes stored under a fixed address with
// the key they are valid for (runtime and package) and their SHA-256. The snapshot and the
// .pyc store each keep one; loading one for another key, or with damaged bytes, rejects, and
// the caller drops it and boots the normal way.
//
// Several files go into one entry as packFiles lays them out: 4 bytes (little-endian) the
// length of a JSON list [[path, size], ...], that list, then the files' bytes in its order.

const CACHE = "livelab-python";
const KEY_HEADER = "X-Livelab-Key";
const SHA_HEADER = "X-Livelab-Sha256";

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function open() {
  return globalThis.caches ? caches.open(CACHE) : null; // none on a plain-http host
}

/**
 * What is stored at address, read on this thread: {head: "none"} (nothing), {head: "other"} (stored
 * for another key) or {head: "found", bytes}, where bytes is a promise of {buffer, matches}
 * (whether the buffer's SHA-256 is the one stored with it).
 */
async function readHere(address, key) {
  const cache = await open();
  const response = cache && (await cache.match(address));
  if (!response) return { head: "none" };
  if (response.headers.get(KEY_HEADER) !== key) return { head: "other" };
  const bytes = response.arrayBuffer().then(async (buffer) => ({
    buffer,
    matches: (await sha256(buffer)) === response.headers.get(SHA_HEADER),
  }));
  return { head: "found", bytes };
}

// Reading megabytes from Cache Storage needs the reading thread's attention for every chunk,
// and the worker's thread is busy starting the interpreter meanwhile: read there, the
// snapshot took 200-300 ms on a reload, on a thread of its own 50-100 ms. So an entry the boot
// waits for is read by a small worker of its own, made from the source of the functions above
// (nothing to download), which hands the bytes over without a copy; where none can start, here.
// (Reading NumPy's files there too made them later: they arrive while the interpreter starts.)
function readerMain() {
  onmessage = async ({ data: { id, address, key } }) => {
    try {
      const read = await readHere(address, key);
      postMessage({ id, head: read.head });
      if (read.bytes) {
        const { buffer, matches } = await read.bytes;
        postMessage({ id, buffer, matches }, [buffer]);
      }
    } catch (err) {
      postMessage({ id, error: String(err?.message ?? err) });
    }
  };
}

let reader = null;
const readings = new Map();
let nextReading = 1;

/** readHere on the reader's thread; null when no reader can start here. */
function readOffThread(address, key) {
  if (typeof Worker !== "function" || typeof Blob !== "function") return null;
  if (!reader) {
    try {
      const constants = JSON.stringify({ CACHE, KEY_HEADER, SHA_HEADER });
      const source = [`const { CACHE, KEY_HEADER, SHA_HEADER } = ${constants};`, sha256, open, readHere]
        .concat(`(${readerMain})();`)
        .join("\n");
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      reader = new Worker(url);
      URL.revokeObjectURL(url);
    } catch {
      return null;
    }
    reader.onmessage = ({ data }) => readings.get(data.id)?.(data);
    reader.onerror = (event) => {
      event.preventDefault();
      for (const settle of readings.values()) settle({ error: "the reader did not start" });
    };
  }
  const id = nextReading++;
  return new Promise((resolve) => {
    let bytesSettle;
    const bytes = new Promise((ok, fail) => (bytesSettle = { ok, fail }));
    readings.set(id, (data) => {
      if (data.head) {
        resolve({ head: data.head, bytes });
        if (data.head !== "found") done(id);
      } else if (data.error) {
        done(id);
        resolve(null); // before the head: read here instead
        bytesSettle.fail(new Error(data.error));
      } else {
        done(id);
        bytesSettle.ok({ buffer: data.buffer, matches: data.matches });
      }
    });
    reader.postMessage({ id, address, key });
  });
}

function done(id) {
  readings.delete(id);
  if (readings.size === 0 && reader) {
    reader.terminate();
    reader = null;
  }
}

/**
 * The entry at `name` beside this module; `what` names it in error messages. offThread: read
 * it on the reader's thread (below), for an entry whose bytes the boot waits for.
 */
export function storedEntry(name, what, { offThread = false } = {}) {
  const address = new URL(name, import.meta.url).href;
  return {
    /**
     * null when nothing is stored, else {bytes}: a promise of the checked bytes. Finding the
     * entry is quick; reading and hashing megabytes is not, so the caller can start what
     * needs them meanwhile. Rejects (or bytes rejects) when the entry is for another key or
     * its bytes are damaged.
     */
    async find(key) {
      const read = (offThread && (await readOffThread(address, key))) || (await readHere(address, key));
      if (read.head === "none") return null;
      if (read.head === "other") throw new Error(`${what} is for another version`);
      const bytes = read.bytes.then(({ buffer, matches }) => {
        if (!matches) throw new Error(`${what}'s bytes do not match its hash`);
        return new Uint8Array(buffer);
      });
      bytes.catch(() => {}); // whoever awaits it reports the failure
      return { bytes };
    },
    /** The checked bytes for this key, or null when nothing is stored. */
    async load(key) {
      const found = await this.find(key);
      return found && found.bytes;
    },
    /** Store bytes for this key, replacing what was there. */
    async store(key, bytes) {
      const cache = await open();
      if (!cache) throw new Error("Cache Storage is not available here");
      const headers = { [KEY_HEADER]: key, [SHA_HEADER]: await sha256(bytes) };
      await cache.put(address, new Response(bytes, { headers }));
    },
    async drop() {
      const cache = await open();
      if (cache) await cache.delete(address);
    },
  };
}

/** Files [[path, bytes]] laid out in one buffer (see the top of this file). */
export function packFiles(files) {
  const index = new TextEncoder().encode(JSON.stringify(files.map(([p, d]) => [p, d.byteLength])));
  const size = 4 + index.byteLength + files.reduce((sum, [, d]) => sum + d.byteLength, 0);
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(0, index.byteLength, true);
  bytes.set(index, 4);
  let at = 4 + index.byteLength;
  for (const [, data] of files) {
    bytes.set(data, at);
    at += data.byteLength;
  }
  return bytes;
}

/** The files [[path, bytes]] of a packFiles buffer (views into it, not copies). */
export function unpackFiles(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const indexEnd = 4 + view.getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(4, indexEnd)));
  let at = indexEnd;
  const files = index.map(([path, size]) => [path, bytes.subarray(at, (at += size))]);
  if (at !== bytes.length) throw new Error("the stored files' index does not match their bytes");
  return files;
}
