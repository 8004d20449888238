// How NumPy's wheel is got (runtime/shared/downloads.js cachedOrLater) and opened (runtime/shared/unpack.js
// unzipWheel), on whichever thread does it: wheel-worker.js, or the Python worker itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import { cachedOrLater } from "../../py/livelab/web/runtime/shared/downloads.js";
import { unzipWheel } from "../../py/livelab/web/runtime/shared/unpack.js";

const URL_ = new URL("https://site/assets/numpy.whl");

/** A global fetch that answers from `cached` only for only-if-cached requests, else 200. */
function stubFetch(cached) {
  const asked = [];
  globalThis.fetch = async (url, init = {}) => {
    asked.push(init.cache ?? "default");
    if (init.cache === "only-if-cached") {
      return cached ? new Response("from cache") : new Response(null, { status: 504 });
    }
    return new Response("from network");
  };
  return asked;
}

test("a cached wheel is read at once, without asking whether it may download", async () => {
  const asked = stubFetch(true);
  let waited = false;
  const got = await cachedOrLater(URL_, async () => (waited = true));
  assert.equal(got.from, "cache");
  assert.equal(await got.response.text(), "from cache");
  assert.deepEqual(asked, ["only-if-cached"]);
  assert.equal(waited, false);
});

test("a wheel not in the cache downloads only once it may", async () => {
  const asked = stubFetch(false);
  let allow;
  const got = cachedOrLater(URL_, () => new Promise((resolve) => (allow = resolve)));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(asked, ["only-if-cached"]); // waiting: nothing downloads yet
  allow(true);
  const { response, from } = await got;
  assert.equal(from, "network");
  assert.equal(await response.text(), "from network");
  assert.deepEqual(asked, ["only-if-cached", "default"]);
});

test("a file that may not come in time is not downloaded at all", async () => {
  const asked = stubFetch(false);
  assert.equal(await cachedOrLater(URL_, async () => false), null);
  assert.deepEqual(asked, ["only-if-cached"]);
});

/** A zip archive of stored (uncompressed) entries: {name: text}. */
function storedZip(files) {
  const encoder = new TextEncoder();
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = encoder.encode(name);
    const data = encoder.encode(text);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint32(20, data.length, true);
    entry.setUint32(24, data.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), nameBytes, data);
    central.push(new Uint8Array(entry.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = central.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, central.length / 2, true);
  end.setUint16(10, central.length / 2, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  return new Uint8Array(Buffer.concat([...locals, ...central, new Uint8Array(end.buffer)]));
}

const hex = (bytes) => createHash("sha256").update(bytes).digest("hex");

test("a wheel unzips to its files, without the ones Python never reads, and its hash", async () => {
  const wheel = storedZip({
    "numpy/__init__.py": "x = 1\n",
    "numpy/core.h": "/* C */",
    "numpy/": "",
  });
  const { files, sha256, error } = await unzipWheel(wheel.buffer);
  assert.deepEqual(
    files.map(([name, data]) => [name, new TextDecoder().decode(data)]),
    [["numpy/__init__.py", "x = 1\n"]],
  );
  assert.equal(sha256, hex(wheel));
  assert.equal(error, undefined);
});

test("a damaged wheel gives no files, the unzip's reason and still its hash", async () => {
  const damaged = new TextEncoder().encode("a page of HTML where the wheel should be");
  const { files, sha256, error } = await unzipWheel(damaged.buffer);
  assert.equal(files, null);
  assert.equal(error, "not a zip archive");
  assert.equal(sha256, hex(damaged)); // installWheel reports the hash mismatch, which says more
});
