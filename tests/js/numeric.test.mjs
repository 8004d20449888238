// The page's numeric grader against the vectors the Python grader wrote
// (tests/answer_vectors.json): every verdict, message and column the same, every
// reading within the grader's tolerance and within 1e-12 (Math.sin, exp, log and ** may
// differ from Python's libm in the last bit, never more). Run: node --test tests/js/

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { gradeNumeric, readAnswer, tolerance } from "../../py/livelab/web/grading/numeric.js";

const VECTORS = new URL("../../tests/answer_vectors.json", import.meta.url);
const { specs, cases } = JSON.parse(readFileSync(VECTORS, "utf8"));

/** The typed text of a case: as stored, or built from its repeat description. */
const expand = (text) =>
  typeof text === "string" ? text : (text.before ?? "") + text.repeat.repeat(text.times) + (text.after ?? "");

function assertCloseReading(got, want, spec) {
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `a list was expected, got ${got}`);
    assert.equal(got.length, want.length);
    want.forEach((w, i) => assertCloseReading(got[i], w, spec));
    return;
  }
  const gap = Math.abs(got - want);
  assert.ok(gap <= tolerance(spec) && gap <= 1e-12 * Math.max(1, Math.abs(want)), `read ${got}, Python read ${want}`);
}

const label = (text) => JSON.stringify(text).slice(0, 60);

test("the vectors cover the course and every verdict", () => {
  assert.ok(cases.length >= 300, `only ${cases.length} vectors`);
  assert.deepEqual(new Set(cases.map((c) => c.result.verdict)), new Set(["correct", "wrong", "unreadable"]));
  assert.ok(Object.keys(specs).some((name) => name.endsWith(".md:q7")));
});

for (const [index, { spec: name, text, result, reading }] of cases.entries()) {
  test(`vector ${index} (${name}): ${label(text)}`, () => {
    const spec = specs[name];
    const typed = expand(text);
    assert.deepEqual(gradeNumeric(spec, typed), result);
    if (reading !== undefined) assertCloseReading(readAnswer(spec, typed), reading, spec);
  });
}
