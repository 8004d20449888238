// stored.js: entries of the worker's Cache Storage, read early (readEarly, before the boot's
// modules load) or when asked for, and checked against their key and hash either way.
import assert from "node:assert/strict";
import { test } from "node:test";

/** Cache Storage as the worker sees it, counting the entries read from it. */
class FakeCache {
  constructor() {
    this.entries = new Map();
    this.reads = 0;
  }
  async keys() {
    return [...this.entries.keys()].map((url) => ({ url }));
  }
  async match(request) {
    const response = this.entries.get(typeof request === "string" ? request : request.url);
    if (response) this.reads += 1;
    return response && response.clone();
  }
  async put(url, response) {
    this.entries.set(String(url), response);
  }
  async delete(url) {
    return this.entries.delete(String(url));
  }
}

const cache = new FakeCache();
globalThis.caches = { open: async () => cache };
const stored = await import("../../py/livelab/web/runtime/shared/stored.js");

test("an entry read early is found with its bytes, checked, without reading it again", async () => {
  const snapshot = stored.storedEntry("snapshot.bin", "the snapshot");
  const numpy = stored.storedEntry("numpy.bin", "the stored NumPy files");
  await snapshot.store("key-1", new Uint8Array([1, 2, 3]));
  await numpy.store("key-1", new Uint8Array([4, 5]));
  cache.reads = 0;
  stored.readEarly();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(cache.reads, 2); // both read before anyone asked
  assert.deepEqual([...(await snapshot.load("key-1"))], [1, 2, 3]);
  assert.deepEqual([...(await numpy.load("key-1"))], [4, 5]);
  assert.equal(cache.reads, 2);
  // Taken once: a second find reads the cache itself.
  assert.deepEqual([...(await snapshot.load("key-1"))], [1, 2, 3]);
  assert.equal(cache.reads, 3);
});

test("an early read refuses another key and damaged bytes", async () => {
  const snapshot = stored.storedEntry("snapshot.bin", "the snapshot");
  await snapshot.store("key-1", new Uint8Array([1, 2, 3]));
  stored.readEarly();
  await assert.rejects(snapshot.find("key-2"), /the snapshot is for another version/);

  const address = [...cache.entries.keys()].find((url) => url.endsWith("/snapshot.bin"));
  const good = cache.entries.get(address);
  const damaged = new Uint8Array(await good.clone().arrayBuffer());
  damaged[1] ^= 0xff;
  await cache.put(address, new Response(damaged, { headers: good.headers }));
  stored.readEarly();
  const found = await snapshot.find("key-1");
  await assert.rejects(found.bytes, /the snapshot's bytes do not match its hash/);
});

test("what is stored or dropped after an early read is what a later find sees", async () => {
  const pycs = stored.storedEntry("pycache.bin", "the .pyc store");
  await pycs.drop();
  stored.readEarly();
  await pycs.store("key-1", new Uint8Array([7]));
  assert.deepEqual([...(await pycs.load("key-1"))], [7]);
  stored.readEarly();
  await pycs.drop();
  assert.equal(await pycs.load("key-1"), null);
});

test("nothing stored: an early read finds nothing", async () => {
  for (const url of [...cache.entries.keys()]) await cache.delete(url);
  stored.readEarly();
  assert.equal(await stored.storedEntry("snapshot.bin", "the snapshot").find("key-1"), null);
});
