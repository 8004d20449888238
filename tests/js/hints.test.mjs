// The hint ladder's rules as the question widgets use them (py/livelab/web/widgets/hints.js
// and progress/record.js): a hint is earned by a wrong check, each one is kept in saved
// progress (also when another tab asked for one), a hint never counts as shown or solved, and
// "Show answer" waits for every hint or for HONEST_TRIES wrong checks.
// Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

const stored = new Map();
globalThis.localStorage = {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
};
globalThis.document = new EventTarget();
const SITE = new URL("../../py/", import.meta.url); // store.js is at <root>/livelab/web/progress/
const PAGE = "level-19/modern-blocks/";
const KEY = `livelab-progress:${SITE.pathname}`;
globalThis.location = new URL(PAGE, SITE);

const { progress } = await import("../../py/livelab/web/progress/store.js");
const { QuestionRecord } = await import("../../py/livelab/web/progress/record.js");
const { questionState } = await import("../../py/livelab/web/progress/states.js");
const { HONEST_TRIES, answerEarned } = await import("../../py/livelab/web/widgets/hints.js");

const saved = (id) => JSON.parse(stored.get(KEY)).pages[PAGE].questions[id];

test("hints asked for are saved, capped at the ladder's length, and change no state", () => {
  progress.reset();
  const record = new QuestionRecord("q2", "numeric");
  record.attempt("6", "wrong", "Half the norms.");
  assert.equal(record.showHint(2), 1);
  assert.equal(record.showHint(2), 2);
  assert.equal(record.showHint(2), 2);
  assert.equal(saved("q2").hints, 2);
  assert.equal(saved("q2").answer, "6"); // the last answer stays as it was
  assert.equal(questionState(saved("q2")), "not-yet");
  record.attempt("12", "correct", "");
  assert.equal(questionState(saved("q2")), "correct"); // helped by hints, still solved
  assert.equal(new QuestionRecord("q2", "numeric").hintsShown, 2); // as a reload reads it
});

test("a hint asked for in another tab is counted, not overwritten", () => {
  progress.reset();
  const here = new QuestionRecord("q3", "numeric");
  here.attempt("9", "wrong", "");
  const there = new QuestionRecord("q3", "numeric");
  there.showHint(3);
  assert.equal(here.hintsShown, 0); // not read again yet
  assert.equal(here.showHint(3), 2);
  assert.equal(saved("q3").hints, 2);
});

test("Show answer waits for every hint, or for the honest tries", () => {
  progress.reset();
  const record = new QuestionRecord("q5", "numeric");
  assert.equal(answerEarned(record, 2), false); // nothing tried
  record.attempt("0.5", "wrong", "");
  assert.equal(answerEarned(record, 2), false);
  record.showHint(2);
  assert.equal(answerEarned(record, 2), false);
  record.showHint(2);
  assert.equal(answerEarned(record, 2), true); // every hint shown
  const bare = new QuestionRecord("q7", "numeric");
  for (let tries = 1; tries <= HONEST_TRIES; tries += 1) {
    assert.equal(answerEarned(bare, 0), false, `after ${tries - 1} wrong checks, no hints`);
    bare.attempt(`0.${tries}`, "wrong", "");
  }
  assert.equal(answerEarned(bare, 0), true);
  assert.equal(answerEarned(bare, 3), true); // also with hints left
});

test("a right check is no honest try: it earns neither a hint nor the answer", () => {
  progress.reset();
  const record = new QuestionRecord("q8", "numeric");
  record.attempt("0.73", "correct", "");
  assert.equal(record.failures, 0);
  assert.equal(answerEarned(record, 0), false);
});
