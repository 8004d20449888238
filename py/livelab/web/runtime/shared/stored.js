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

// What readEarly started: a promise of {read: Map(address -> {response, buffer}), taken: Set}
// for every entry stored when the worker started; null when nothing was started. Each address
// is taken from it once: later calls read the cache itself.
let early = null;

/**
 * Start reading every stored entry now, before the boot's modules have loaded (worker.js,
 * head-start.js): the worker's thread is idle while they load, and Cache Storage hands a body
 * over in chunks on this thread, so a read started later waited behind the boot's own work.
 */
export function readEarly() {
  early = open()
    .then(async (cache) => {
      const requests = cache ? await cache.keys() : [];
      const responses = await Promise.all(requests.map((request) => cache.match(request)));
      const read = new Map();
      responses.forEach((response, i) => {
        if (!response) return;
        const buffer = response.arrayBuffer();
        buffer.catch(() => {}); // whoever takes it reports the failure
        read.set(requests[i].url, { response, buffer });
      });
      return { read, taken: new Set() };
    })
    .catch(() => null); // then each entry is read when asked for
}

/** The early read of this address: {response, buffer}, or null when nothing was stored
 * then; undefined when there was no early read or it was taken before. */
async function takeEarly(address) {
  const found = early && (await early);
  if (!found || found.taken.has(address)) return undefined;
  found.taken.add(address);
  const hit = found.read.get(address) ?? null;
  found.read.delete(address);
  return hit;
}

/** The entry at `name` in runtime/ (the folder above this module's); `what` names it in
 * error messages. */
export function storedEntry(name, what) {
  const address = new URL(`../${name}`, import.meta.url).href;
  return {
    /**
     * null when nothing is stored, else {bytes}: a promise of the checked bytes. Finding the
     * entry is quick; reading and hashing megabytes is not, so the caller can start what
     * needs them meanwhile. Rejects (or bytes rejects) when the entry is for another key or
     * its bytes are damaged.
     */
    async find(key) {
      let hit = await takeEarly(address);
      if (hit === undefined) {
        const cache = await open();
        const response = cache && (await cache.match(address));
        hit = response && { response, buffer: response.arrayBuffer() };
      }
      if (!hit) return null;
      const { response } = hit;
      if (response.headers.get(KEY_HEADER) !== key) throw new Error(`${what} is for another version`);
      const bytes = hit.buffer.then(async (buffer) => {
        const data = new Uint8Array(buffer);
        if ((await sha256(data)) !== response.headers.get(SHA_HEADER)) {
          throw new Error(`${what}'s bytes do not match its hash`);
        }
        return data;
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
      await takeEarly(address);
      const cache = await open();
      if (!cache) throw new Error("Cache Storage is not available here");
      const headers = { [KEY_HEADER]: key, [SHA_HEADER]: await sha256(bytes) };
      await cache.put(address, new Response(bytes, { headers }));
    },
    async drop() {
      await takeEarly(address);
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
