// Saved progress as progress/schema.js reads it: every level checked, odd parts dropped and
// counted, and no key in the saved text reaching a prototype ("__proto__", "constructor",
// "toString" at every level). Run: node --test tests/js/

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { cleanProgress, ID_PATTERN } from "../../py/livelab/web/progress/schema.js";

const PAGE = "level-19/modern-blocks/";
const GOOD = { kind: "numeric", answer: "0.84", verdict: "correct", attempts: 2, failures: 1, solvedAt: 2, hints: 1 };
const plain = (value) => JSON.parse(JSON.stringify(value)); // what the store would write

/** Saved text with `inner` (JSON text) as the page's entry, beside one good question. */
const withPage = (inner) =>
  `{"version": 2, "pages": {"${PAGE}": ${inner}, "elsewhere/": {"questions": {"q3": ${JSON.stringify(GOOD)}}}}}`;

test("saved data that fits is kept whole", () => {
  const raw = { version: 2, pages: { [PAGE]: { questions: { q3: GOOD }, labs: { rms: { params: { x: [1, 2], on: true } } } } } };
  const { data, dropped } = cleanProgress(plain(raw));
  assert.equal(dropped, 0);
  assert.deepEqual(plain(data), raw);
});

// Each odd key, at each level of the saved text: the walk goes on, the key is dropped and
// counted (so the store sets the text aside with its note), and nothing else is lost.
const ODD_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
const PLACES = {
  "top level": (key) => `{"version": 2, "pages": {"elsewhere/": {"questions": {"q3": ${JSON.stringify(GOOD)}}}}, "${key}": {"x": 1}}`,
  "page section": (key) => withPage(`{"${key}": {"x": 1}}`),
  "page section holding entries": (key) => withPage(`{"${key}": {"q1": ${JSON.stringify(GOOD)}}}`),
  "question id": (key) => withPage(`{"questions": {"${key}": ${JSON.stringify(GOOD)}}}`),
  "question field": (key) => withPage(`{"questions": {"q1": {"attempts": 1, "${key}": {"x": 1}}}}`),
  "question field with a string": (key) => withPage(`{"questions": {"q1": {"attempts": 1, "${key}": "x"}}}`),
  "lab id": (key) => withPage(`{"labs": {"${key}": {"params": {"x": 1}}}}`),
  "lab field": (key) => withPage(`{"labs": {"rms": {"params": {"x": 1}, "${key}": {"y": 2}}}}`),
};

// An id the builder would accept ("constructor") may be a real question's: it is kept, as an
// ordinary key of an object without a prototype.
const ID_PLACES = new Set(["question id", "lab id"]);

for (const key of ODD_KEYS) {
  for (const [place, text] of Object.entries(PLACES)) {
    const kept = ID_PLACES.has(place) && ID_PATTERN.test(key);
    test(`a "${key}" key as a ${place} is ${kept ? "an ordinary id" : "dropped and counted"}, the rest kept`, () => {
      const { data, dropped } = cleanProgress(JSON.parse(text(key)));
      if (kept) {
        assert.equal(dropped, 0);
        const section = place === "lab id" ? "labs" : "questions";
        assert.deepEqual(Object.keys(data.pages[PAGE][section]), [key]);
      } else {
        assert.ok(dropped >= 1);
      }
      assert.equal(Object.getPrototypeOf(data.pages), null);
      assert.deepEqual(plain(data.pages["elsewhere/"]), { questions: { q3: GOOD } });
      assert.deepEqual(Object.keys(data), ["version", "pages"]);
      assert.equal({}.x, undefined); // nothing reached Object.prototype
      for (const page of Object.values(data.pages)) {
        assert.equal(Object.getPrototypeOf(page), null);
        for (const section of Object.values(page)) {
          assert.equal(Object.getPrototypeOf(section), null);
          for (const entry of Object.values(section)) {
            assert.equal(Object.getPrototypeOf(entry), null);
            if (!kept) assert.ok(!Object.hasOwn(entry, key));
          }
        }
      }
    });
  }
}

test('a page keyed "__proto__" or "constructor" is an ordinary page, not a prototype', () => {
  const raw = JSON.parse(`{"version": 2, "pages": {"__proto__": {"questions": {"q1": {"attempts": 3}}},
    "constructor": {"labs": {"rms": {"params": {"__proto__": 1, "toString": 2}}}}}}`);
  const { data, dropped } = cleanProgress(raw);
  assert.equal(dropped, 0);
  assert.equal(Object.getPrototypeOf(data.pages), null);
  assert.deepEqual(Object.keys(data.pages), ["__proto__", "constructor"]);
  assert.equal(data.pages.__proto__.questions.q1.attempts, 3);
  const params = data.pages.constructor.labs.rms.params;
  assert.deepEqual(Object.entries(params), [["__proto__", 1], ["toString", 2]]);
  // Written and read again, it is the same.
  assert.deepEqual(plain(cleanProgress(JSON.parse(JSON.stringify(data))).data), plain(data));
});

test("entries of the wrong type are dropped one by one", () => {
  const raw = withPage('{"questions": {"q1": "odd", "q2": {"attempts": -1, "verdict": "maybe", "hints": 1.5, "answer": "x"}}, "labs": {"rms": 7}}');
  const { data, dropped } = cleanProgress(JSON.parse(raw));
  assert.equal(dropped, 5); // q1, q2's attempts, verdict and hints, the lab
  assert.deepEqual(plain(data.pages[PAGE]), { questions: { q2: { answer: "x" } }, labs: {} });
});

test("text that is not saved progress is not read at all", () => {
  for (const raw of [null, 3, "x", [], {}, { version: 3, pages: {} }, { version: 2, pages: [] }, { pages: {} }]) {
    assert.deepEqual(cleanProgress(raw), { data: null, dropped: 1 });
  }
  // version and pages only count as the object's own.
  const inherited = Object.create({ version: 2, pages: {} });
  assert.deepEqual(cleanProgress(inherited), { data: null, dropped: 1 });
});

test("version 1's correct verdicts become solves", () => {
  const raw = { version: 1, pages: { [PAGE]: { questions: { q1: { verdict: "correct", attempts: 3 }, q2: { verdict: "correct" } } } } };
  const { data, dropped } = cleanProgress(raw);
  assert.equal(dropped, 0);
  assert.equal(data.version, 2);
  assert.equal(data.pages[PAGE].questions.q1.solvedAt, 3);
  assert.equal(data.pages[PAGE].questions.q2.solvedAt, 1);
});

test("an id is what the builder accepts as one (livelab.builder.fences.ID_PATTERN)", () => {
  const fences = readFileSync(new URL("../../py/livelab/builder/fences.py", import.meta.url), "utf8");
  const python = fences.match(/^ID_PATTERN = re\.compile\(r"(.*)"\)$/m)[1];
  assert.equal(ID_PATTERN.source, python);
});

// When the student last worked on a question or a lab: home's "Continue where you left off".
test("when a question or a lab was last touched is kept", () => {
  const raw = {
    version: 2,
    pages: { [PAGE]: { questions: { q3: { ...GOOD, touchedAt: 1_764_000_000_000 } }, labs: { rms: { params: { x: 1 }, touchedAt: 1_764_000_000_001 } } } },
  };
  const { data, dropped } = cleanProgress(plain(raw));
  assert.equal(dropped, 0);
  assert.equal(data.pages[PAGE].questions.q3.touchedAt, 1_764_000_000_000);
  assert.equal(data.pages[PAGE].labs.rms.touchedAt, 1_764_000_000_001);
});

for (const bad of [0, -5, 1.5, "1764000000000", null, true]) {
  test(`a touchedAt of ${JSON.stringify(bad)} is dropped and counted, the entry kept`, () => {
    const raw = {
      version: 2,
      pages: { [PAGE]: { questions: { q3: { ...GOOD, touchedAt: bad } }, labs: { rms: { params: { x: 1 }, touchedAt: bad } } } },
    };
    const { data, dropped } = cleanProgress(plain(raw));
    assert.equal(dropped, 2);
    assert.deepEqual(plain(data.pages[PAGE].questions.q3), GOOD);
    assert.deepEqual(plain(data.pages[PAGE].labs.rms), { params: { x: 1 } });
  });
}

test("the hints asked for before the first solve are kept", () => {
  const entry = { ...GOOD, hintsAtSolve: 1 };
  const raw = { version: 2, pages: { [PAGE]: { questions: { q3: entry } } } };
  const { data } = cleanProgress(plain(raw));
  assert.equal(data.pages[PAGE].questions.q3.hintsAtSolve, 1);
});
