// A page's one address (py/livelab/web/address.js): what the page's first script, the service
// worker and saved progress make of each address a page can be reached at. Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

const { canonicalPath } = await import("../../py/livelab/web/address.js");

test("a page's own path is left as it is", () => {
  for (const path of ["/", "/level-19/modern-blocks/", "/course/level-19/", "/sw.js", "/404.html"]) {
    assert.equal(canonicalPath(path), path);
  }
});

test("repeated slashes anywhere are one", () => {
  assert.equal(canonicalPath("//level-19/modern-blocks/"), "/level-19/modern-blocks/");
  assert.equal(canonicalPath("/level-19//modern-blocks/"), "/level-19/modern-blocks/");
  assert.equal(canonicalPath("///level-19///modern-blocks//"), "/level-19/modern-blocks/");
  assert.equal(canonicalPath("//assets//livelab/livelab.js"), "/assets/livelab/livelab.js");
});

test("a folder's index.html is the folder, and only at the end", () => {
  assert.equal(canonicalPath("/index.html"), "/");
  assert.equal(canonicalPath("/level-19/modern-blocks/index.html"), "/level-19/modern-blocks/");
  assert.equal(canonicalPath("//level-19//modern-blocks/index.html"), "/level-19/modern-blocks/");
  assert.equal(canonicalPath("/level-19/myindex.html"), "/level-19/myindex.html");
  assert.equal(canonicalPath("/index.html/x"), "/index.html/x");
});
