// When the NumPy wheel may start downloading beside the interpreter's files
// (Downloads.fastEnough in runtime/shared/downloads.js): at once on a fast link, only when they are
// nearly in on a slow one.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Downloads, fetchOk } from "../../py/livelab/web/runtime/shared/downloads.js";

const FIRST = ["https://site/pyodide.asm.wasm", "https://site/python_stdlib.zip"];

function downloadsAfter(ms, loaded) {
  const downloads = new Downloads({ [FIRST[0]]: 10_000_000, [FIRST[1]]: 2_000_000 }, () => {});
  downloads.firstByteAt = performance.now() - ms;
  downloads.files.get(FIRST[0]).loaded = loaded;
  return downloads;
}

const within = (promise, ms) =>
  Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

test("a fast link lets the wheel start while the runtime's files still arrive", async () => {
  // 6 MB in 200 ms: the 6 MB left and a 3 MB wheel take about 300 ms more.
  const downloads = downloadsAfter(200, 6_000_000);
  assert.equal(await within(downloads.fastEnough(FIRST, 3_000_000, 1_000), 200), true);
});

test("a slow link keeps the wheel back until the runtime's files are in", async () => {
  // 1.5 Mbit/s: 37 KB in 200 ms, so the rest would take over a minute.
  const downloads = downloadsAfter(200, 37_500);
  assert.equal(await within(downloads.fastEnough(FIRST, 3_000_000, 1_000), 200), false);
  for (const url of FIRST) downloads.files.get(url).settled = true;
  assert.equal(await within(downloads.fastEnough(FIRST, 3_000_000, 1_000), 200), true);
});

test("the first moments' rate is not trusted", async () => {
  const downloads = downloadsAfter(20, 6_000_000); // 20 ms of bytes: too soon to judge
  assert.equal(await within(downloads.fastEnough(FIRST, 3_000_000, 1_000), 60), false);
});

// NumPy's wheel is downloaded on a thread of its own (runtime/helper/wheel-worker.js), whose
// messages count its bytes here (Downloads.arrived).
test("bytes counted from another thread's messages add to the total, and complete it", () => {
  const WHEEL = "https://site/numpy.whl";
  const reports = [];
  const downloads = new Downloads({ [FIRST[0]]: 1_000, [WHEEL]: 0 }, (loaded, total) =>
    reports.push([loaded, total]),
  );
  downloads.files.get(FIRST[0]).loaded = 1_000;
  downloads.files.get(FIRST[0]).complete = true;
  downloads.arrived(WHEEL, 400, false);
  downloads.arrived(WHEEL, 300, false); // a late, smaller count never takes bytes back
  assert.equal(downloads.files.get(WHEEL).loaded, 400);
  assert.equal(downloads.done, false);
  downloads.arrived(WHEEL, 900, true);
  assert.equal(downloads.done, true);
  assert.deepEqual(reports.at(-1), [1_900, 1_900]); // its size is what arrived
  downloads.arrived("https://site/other.bin", 5, true); // not tracked: nothing changes
  assert.equal(downloads.loaded, 1_900);
});

// pyodide.asm.wasm is asked for from the worker's first lines (runtime/worker/head-start.js), and
// the boot adopts that fetch: Pyodide's own fetch of the file gets it, once, and its bytes count.
test("an adopted fetch answers the next fetch of its URL, once, and its bytes are counted", async () => {
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(String(url));
    return new Response(new Uint8Array(700), { status: 200 });
  };
  const downloads = new Downloads({ [FIRST[0]]: 700 }, () => {});
  const early = Promise.resolve(new Response(new Uint8Array(700), { status: 200 }));
  Object.defineProperty(await early, "url", { value: FIRST[0] });
  downloads.adopt(FIRST[0], early);
  const first = await downloads.fetch(FIRST[0], { credentials: "same-origin" });
  assert.equal((await first.arrayBuffer()).byteLength, 700);
  assert.deepEqual(asked, []); // the adopted fetch, not a new one
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(downloads.files.get(FIRST[0]).loaded, 700);
  await downloads.fetch(FIRST[0]); // a second fetch (a boot started again) asks the network
  assert.deepEqual(asked, [FIRST[0]]);
  downloads.adopt(FIRST[1], undefined); // nothing was started for it: nothing to adopt
  await downloads.fetch(FIRST[1]);
  assert.deepEqual(asked, [FIRST[0], FIRST[1]]);
});

// What a failed boot names (boot.js downloadFailed): each file that did not come, and whether
// the service worker said its offline copy was damaged (sw.js `unavailable`).
async function withFetch(answer, work) {
  const saved = globalThis.fetch;
  globalThis.fetch = async (input) => answer(String(input.url ?? input));
  try {
    return await work();
  } finally {
    globalThis.fetch = saved;
  }
}

const DAMAGED = { status: 503, headers: { "X-Livelab-Unavailable": "damaged" } };

test("fetchOk names the file that did not come and says its offline copy was damaged", async () => {
  await withFetch(
    () => new Response("no", DAMAGED),
    () =>
      assert.rejects(fetchOk(new URL("https://site/assets/livelab/livelab-abc.zip")), (err) => {
        assert.deepEqual(err.failed, { file: "livelab-abc.zip", damaged: true });
        return true;
      }),
  );
  await withFetch(
    () => Promise.reject(new TypeError("Failed to fetch")),
    () =>
      assert.rejects(fetchOk("https://site/assets/livelab/manifest.json"), (err) => {
        assert.deepEqual(err.failed, { file: "manifest.json", damaged: false });
        return true;
      }),
  );
});

test("Downloads notes each failed fetch, not a look into the cache that found nothing", async () => {
  const wasm = "https://site/pyodide/pyodide.asm.wasm";
  await withFetch(
    (url) =>
      url.endsWith(".wasm") ? new Response("no", DAMAGED) : Promise.reject(new TypeError("x")),
    async () => {
      const downloads = new Downloads({ [wasm]: 0 }, () => {});
      await downloads.fetch(wasm);
      await assert.rejects(downloads.fetch("https://site/b.gz", { cache: "only-if-cached" }));
      await assert.rejects(downloads.fetch("https://site/pyodide.mjs", { method: "HEAD" }));
      await assert.rejects(downloads.fetch("https://site/pyodide/python_stdlib.zip"));
      assert.deepEqual(downloads.failed, [
        { file: "pyodide.asm.wasm", damaged: true },
        { file: "python_stdlib.zip", damaged: false },
      ]);
    },
  );
});
