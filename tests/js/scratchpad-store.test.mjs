// The scratchpad's saved text (py/livelab/web/widgets/scratchpad-store.js): one text per page,
// odd saved data read as no text, a refused write kept for the visit. Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

// A localStorage as the browser gives it; `full` makes every write throw, as a full one does.
const stored = new Map();
const storage = {
  full: false,
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem(key, value) {
    if (this.full) throw Object.assign(new Error("full"), { name: "QuotaExceededError" });
    stored.set(key, String(value));
  },
};
globalThis.localStorage = storage;
const { loadText, saveText, TEXT_LIMIT } = await import("../../py/livelab/web/widgets/scratchpad-store.js");

const onlyKey = () => {
  assert.equal(stored.size, 1);
  return [...stored.keys()][0];
};

test("each page keeps its own text, under a key named after the site's root", () => {
  assert.equal(saveText("level-19/modern-blocks/", "x = 1"), true);
  assert.equal(saveText("", "home = 2"), true);
  assert.equal(loadText("level-19/modern-blocks/"), "x = 1");
  assert.equal(loadText(""), "home = 2");
  assert.equal(loadText("level-19/worked-examples/"), "");
  assert.match(onlyKey(), /^livelab-scratchpad:\/.*\/$/);
});

test("odd saved data reads as no text and the next save starts afresh", () => {
  const key = onlyKey();
  for (const odd of ["{not json", "[]", '{"version": 1, "pages": [3]}', '{"version": 9, "pages": {}}']) {
    stored.set(key, odd);
    assert.equal(loadText("level-19/modern-blocks/"), "");
  }
  stored.set(key, JSON.stringify({ version: 1, pages: { a: 42, b: "kept" } }));
  assert.equal(loadText("a"), "");
  assert.equal(loadText("b"), "kept");
});

test("a huge text is cut, an empty one leaves no entry", () => {
  saveText("big", "#".repeat(TEXT_LIMIT + 10));
  assert.equal(loadText("big").length, TEXT_LIMIT);
  saveText("big", "");
  assert.equal("big" in JSON.parse(stored.get(onlyKey())).pages, false);
});

test("a write the browser refuses says so and keeps the text for the visit", () => {
  storage.full = true;
  assert.equal(saveText("page", "unsaved = 1"), false);
  assert.equal(loadText("page"), "unsaved = 1");
  storage.full = false;
  assert.equal(saveText("page", "saved = 2"), true);
  assert.equal(loadText("page"), "saved = 2");
});
