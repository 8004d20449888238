// When the NumPy wheel may start downloading beside the interpreter's files
// (Downloads.fastEnough in runtime/downloads.js): at once on a fast link, only when they are
// nearly in on a slow one.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Downloads } from "../../py/livelab/web/runtime/downloads.js";

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
