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
  assert.equal(saveText("level-19/modern-blocks/", "x = 1"), "saved");
  assert.equal(saveText("", "home = 2"), "saved");
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

test("a huge text is stored cut and says so, kept whole for the visit; an empty one leaves no entry", () => {
  const huge = "x = 1\n".repeat(Math.ceil((TEXT_LIMIT + 12_000) / 6)); // the reviewer's 112 kB paste
  assert.equal(saveText("big", huge), "cut");
  assert.equal(JSON.parse(stored.get(onlyKey())).pages.big, huge.slice(0, TEXT_LIMIT));
  assert.equal(loadText("big"), huge); // the editor made anew this visit loses nothing
  assert.equal(saveText("big", "short"), "saved");
  assert.equal(loadText("big"), "short");
  saveText("big", "");
  assert.equal("big" in JSON.parse(stored.get(onlyKey())).pages, false);
});

test("a write the browser refuses says so and keeps the text for the visit", () => {
  storage.full = true;
  assert.equal(saveText("page", "unsaved = 1"), "unsaved");
  assert.equal(loadText("page"), "unsaved = 1");
  storage.full = false;
  assert.equal(saveText("page", "saved = 2"), "saved");
  assert.equal(loadText("page"), "saved = 2");
});
