// The service worker's check of what it serves (py/livelab/web/sw.js): a cached body is served
// only when it hashes to what the build listed, pyodide.asm.wasm as any other (a copy from an
// older version, with a custom section added, is refused and downloaded again); sitemap.xml
// is checked with its addresses relative, wherever a server moved them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";

import strings from "../../py/livelab/web/strings.js";

const SOURCE = readFileSync(new URL("../../py/livelab/web/sw.js", import.meta.url), "utf-8");
// The sentences the build gives the worker (livelab.builder.offline.worker_sentences): English.
const text = Object.fromEntries(Object.entries(strings).filter(([key]) => key.startsWith("offline.")));

/** sw.js run as the build writes it (here the retiring kind, which registers no routes). */
function serviceWorker() {
  const self = { addEventListener() {} };
  const globals = { TextEncoder, crypto, btoa, Response, Headers, URL, performance };
  const context = { BUILD: { retire: true, language: "en", text }, self, ...globals };
  vm.runInNewContext(SOURCE, context);
  return context;
}

const integrity = (bytes) => `sha256-${createHash("sha256").update(bytes).digest("base64")}`;
const JS = new TextEncoder().encode("export const runtime = 1;\n");

test("a cached body that hashes to the build's integrity is served untouched", async () => {
  const sw = serviceWorker();
  const response = new Response(JS);
  assert.equal(await sw.checkedBody(response, "/assets/livelab/livelab.js", integrity(JS)), true);
  assert.equal(await response.text(), "export const runtime = 1;\n"); // a clone was read
  assert.deepEqual([...sw.self.livelabChecks.damaged], []);
  assert.equal(sw.self.livelabChecks.bodies, 1);
});

test("a rewritten body is refused and its path noted", async () => {
  const sw = serviceWorker();
  const pwned = new Response("document.title='PWNED';export const runtime = 1;\n");
  assert.equal(await sw.checkedBody(pwned, "/assets/livelab/livelab.js", integrity(JS)), false);
  assert.deepEqual([...sw.self.livelabChecks.damaged], ["/assets/livelab/livelab.js"]);
});

test("the precache's wasm is checked as served; an older version's marked copy is refused", async () => {
  const sw = serviceWorker();
  const wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
  const name = new TextEncoder().encode("livelab-precache");
  const mark = new Uint8Array([0, name.length + 1, name.length, ...name]);
  const path = "/assets/livelab/pyodide/pyodide.asm.wasm";
  assert.equal(await sw.checkedBody(new Response(wasm), path, integrity(wasm)), true);
  const marked = new Uint8Array([...wasm, ...mark]);
  assert.equal(await sw.checkedBody(new Response(marked), path, integrity(wasm)), false);
  const flipped = wasm.slice();
  flipped[4] = 2;
  assert.equal(await sw.checkedBody(new Response(flipped), path, integrity(wasm)), false);
});

const SITEMAP = (root) => `<urlset>
<url><loc>${root}</loc></url>
<url><loc>${root}level-19/modern-blocks/</loc></url>
</urlset>`;

test("the sitemap is checked with relative addresses, wherever a server moved them", () => {
  const sw = serviceWorker();
  const relative = SITEMAP("");
  assert.equal(sw.relocated(SITEMAP("http://127.0.0.1:8000/"), ""), relative);
  assert.equal(sw.relocated(SITEMAP("http://localhost:41234/course/"), ""), relative);
  assert.equal(sw.relocated(relative, "http://x/"), SITEMAP("http://x/"));
  // As livelab.builder.serve.rewrite_sitemap: without a common home it is left as it is.
  const odd = SITEMAP("http://a/").replace("<loc>http://a/</loc>", "<loc>http://b/</loc>");
  assert.equal(sw.relocated(odd, ""), odd);
});

test("the sentence for a file with no good copy names it and says what to do", () => {
  const sw = serviceWorker();
  const sentence = sw.unavailableSentence("/assets/livelab/runtime/page/client.js", true);
  assert.match(sentence, /client\.js could not be loaded: its copy kept for offline use is damaged/);
  assert.match(sentence, /Connect to the internet, then reload the page\.$/);
});
