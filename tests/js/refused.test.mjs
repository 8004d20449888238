// A file the server answers with an error status (runtime/shared/downloads.js RefusedFile, refusedOf)
// and the page's sentence for it (runtime/shared/stops.js refusedMessage): the file is named, a 404
// says it is missing on the server, and no answer at all is left to "Check your connection".
import { test } from "node:test";
import assert from "node:assert/strict";

import { fetchOk, RefusedFile, refusedOf } from "../../py/livelab/web/runtime/shared/downloads.js";
import { refusedMessage } from "../../py/livelab/web/runtime/shared/stops.js";

const SITE = "https://site/course/assets/livelab/";

/** Run work with fetch answering each URL with the status in statuses (rejecting if absent). */
async function withServer(statuses, work) {
  const original = globalThis.fetch;
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push([String(url), init?.method ?? "GET"]);
    if (!(String(url) in statuses)) throw new TypeError("Failed to fetch");
    return new Response(null, { status: statuses[String(url)] });
  };
  try {
    return [await work(), asked];
  } finally {
    globalThis.fetch = original;
  }
}

test("fetchOk rejects an error status with the file's path and the status", async () => {
  const url = new URL("livelab-1.zip", SITE);
  const [err] = await withServer({ [url]: 404 }, () => fetchOk(url).catch((e) => e));
  assert.ok(err instanceof RefusedFile);
  assert.equal(err.path, "/course/assets/livelab/livelab-1.zip");
  assert.equal(err.status, 404);
});

test("refusedOf asks each file with HEAD and names the first the server refuses", async () => {
  const [a, b, c] = ["pyodide.mjs", "pyodide.asm.js", "python_stdlib.zip"].map((n) => SITE + n);
  const [found, asked] = await withServer({ [a]: 200, [b]: 404, [c]: 404 }, () =>
    refusedOf([a, b, c]),
  );
  assert.equal(found.path, "/course/assets/livelab/pyodide.asm.js");
  assert.deepEqual(asked, [[a, "HEAD"], [b, "HEAD"]]);
});

test("refusedOf finds nothing when every file is there, or nothing answers", async () => {
  const [a, b] = [SITE + "a.js", SITE + "b.js"];
  assert.equal((await withServer({ [a]: 200, [b]: 200 }, () => refusedOf([a, b])))[0], null);
  assert.equal((await withServer({}, () => refusedOf([a, b])))[0], null); // offline
});

test("a 404 is missing on the server; another status is named as the server's answer", () => {
  const missing = refusedMessage({ path: "/assets/livelab/pyodide/python_stdlib.zip", status: 404 });
  assert.match(missing, /the file \/assets\/livelab\/pyodide\/python_stdlib\.zip is missing on the server/);
  assert.doesNotMatch(missing, /connection/);
  const failing = refusedMessage({ path: "/assets/livelab/livelab-1.zip", status: 503 });
  assert.match(failing, /the server answered 503 for the file \/assets\/livelab\/livelab-1\.zip/);
  assert.doesNotMatch(failing, /connection/);
});
