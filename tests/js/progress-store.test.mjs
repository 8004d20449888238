// Saved progress while storage is full (py/livelab/web/progress/store.js and pending.js):
// every change made meanwhile waits in memory and is written, all of them, in order, at the
// next change, on the retry timer or when the tab is hidden; the note says what waits and goes
// once it is written. Also: odd saved data ("__proto__") is set aside, not thrown on.
// Run: node --test tests/js/

import assert from "node:assert/strict";
import test, { mock } from "node:test";

// localStorage as the browser gives it; `full` makes every write throw, as a full one does.
const stored = new Map();
const storage = {
  full: false,
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem(key, value) {
    if (this.full) throw new DOMException("full", "QuotaExceededError");
    stored.set(key, String(value));
  },
  removeItem: (key) => stored.delete(key),
};
const windowEvents = new EventTarget();
globalThis.localStorage = storage;
globalThis.document = new EventTarget();
globalThis.addEventListener = windowEvents.addEventListener.bind(windowEvents);
const notes = [];
document.addEventListener("livelab:storage", () => notes.push(progress.problem));

const schema = "../../py/livelab/web/progress/schema.js";
const SITE = new URL("../../py/", import.meta.url); // store.js is at <root>/livelab/web/progress/
const PAGE = "level-19/modern-blocks/";
const KEY = `livelab-progress:${SITE.pathname}`;
globalThis.location = new URL(PAGE, SITE);
// Planted before the store loads: a "__proto__" section, which made the old schema throw.
const ODD = `{"version":2,"pages":{"${PAGE}":{"__proto__":{"x":1}},"elsewhere/":{"questions":{"q1":{"attempts":1}}}}}`;
stored.set(KEY, ODD);

mock.timers.enable({ apis: ["setInterval"] });
const { progress, RETRY_MS } = await import("../../py/livelab/web/progress/store.js");
const { SCHEMA } = await import(schema);

const savedPage = (page = PAGE) => JSON.parse(stored.get(KEY)).pages[page] ?? {};
const answer = (text) => ({ kind: "numeric", answer: text, attempts: 1 });

function fresh() {
  storage.full = false;
  stored.clear();
  progress.reset();
  notes.length = 0;
}

test('saved progress with a "__proto__" key loads: that part is set aside with the note', () => {
  assert.equal(stored.get(`${KEY}:set-aside`), ODD);
  assert.match(progress.problem, /Part of your saved progress could not be read, so it was set aside/);
  assert.deepEqual(JSON.parse(stored.get(KEY)), {
    version: SCHEMA,
    pages: { [PAGE]: {}, "elsewhere/": { questions: { q1: { attempts: 1 } } } },
  });
  progress.set("questions", "q2", answer("0.84"));
  assert.equal(savedPage().questions.q2.answer, "0.84");
});

test("every change made while storage is full is written once there is room (retry timer)", () => {
  fresh();
  progress.set("questions", "q1", answer("first"));
  storage.full = true;
  progress.set("questions", "q2", answer("second"));
  progress.set("labs", "rms", { params: { x: 1 } });
  progress.set("questions", "q3", answer("third"));
  progress.set("questions", "q3", answer("third, changed"));
  assert.deepEqual(Object.keys(savedPage().questions), ["q1"]); // nothing new written yet
  assert.equal(progress.get("questions", "q2").answer, "second"); // but all of it in view
  assert.match(progress.problem, /full, so 2 answers and 1 lab setting could not be saved yet/);
  assert.match(progress.problem, /closing or reloading this tab before then loses them/);
  mock.timers.tick(RETRY_MS); // still full: still waiting
  assert.equal(progress.pending.size, 4);
  storage.full = false;
  mock.timers.tick(RETRY_MS);
  const page = savedPage();
  assert.deepEqual(Object.keys(page.questions), ["q1", "q2", "q3"]);
  assert.equal(page.questions.q3.answer, "third, changed");
  assert.deepEqual(page.labs.rms, { params: { x: 1 } });
  assert.equal(progress.problem, "");
  assert.equal(notes.at(-1), ""); // the note was told to go
  assert.equal(progress.full, false);
});

test("the next change writes the ones that waited, onto what another tab wrote meanwhile", () => {
  fresh();
  storage.full = true;
  progress.set("questions", "q1", answer("mine"));
  // Another tab, with room again, saves its own answer first.
  storage.full = false;
  const other = { version: SCHEMA, pages: { [PAGE]: { questions: { q9: answer("theirs") } } } };
  stored.set(KEY, JSON.stringify(other));
  progress.set("questions", "q2", answer("mine too"));
  assert.deepEqual(Object.keys(savedPage().questions).sort(), ["q1", "q2", "q9"]);
  assert.equal(progress.pending.size, 0);
});

test("another tab's write is shown with what still waits here, and retried", () => {
  fresh();
  storage.full = true;
  progress.set("questions", "q1", answer("mine"));
  stored.set(KEY, JSON.stringify({ version: SCHEMA, pages: { [PAGE]: { questions: { q9: answer("theirs") } } } }));
  windowEvents.dispatchEvent(Object.assign(new Event("storage"), { key: KEY }));
  assert.equal(progress.get("questions", "q1").answer, "mine");
  assert.equal(progress.get("questions", "q9").answer, "theirs");
  storage.full = false;
  windowEvents.dispatchEvent(Object.assign(new Event("storage"), { key: KEY }));
  assert.deepEqual(Object.keys(savedPage().questions).sort(), ["q1", "q9"]);
});

test("hiding the tab writes what waits", () => {
  fresh();
  storage.full = true;
  progress.set("questions", "q1", answer("kept"));
  storage.full = false;
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(savedPage().questions.q1.answer, "kept");
  assert.equal(progress.problem, "");
});

test("leaving with changes that wait asks first; without, it does not", () => {
  fresh();
  storage.full = true;
  progress.set("questions", "q1", answer("kept"));
  const leaving = new Event("beforeunload", { cancelable: true });
  windowEvents.dispatchEvent(leaving);
  assert.equal(leaving.defaultPrevented, true);
  storage.full = false;
  mock.timers.tick(RETRY_MS);
  const later = new Event("beforeunload", { cancelable: true });
  windowEvents.dispatchEvent(later);
  assert.equal(later.defaultPrevented, false);
});

test("a reset made while full forgets what waited before it, not after", () => {
  fresh();
  storage.full = true;
  progress.set("questions", "q1", answer("before"));
  progress.reset();
  progress.set("questions", "q2", answer("after"));
  assert.match(progress.problem, /the reset of your progress and 1 answer could not be saved yet/);
  storage.full = false;
  mock.timers.tick(RETRY_MS);
  assert.deepEqual(Object.keys(savedPage().questions), ["q2"]);
});
