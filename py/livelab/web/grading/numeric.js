// Grading a numeric answer on the page, exactly as livelab.builder.answers grades it in Python
// (at build time), so a numeric question needs no worker: it is answered before Python has
// started, or if it never starts. The spec is the fence's NumericSpec.to_json(): {answer,
// decimals, wrong}. Same operations in the same order as Python, so verdicts and messages
// agree; the shared vectors (tests/answer_vectors.json) hold the two to that.

import { readNumber, typographic, Unreadable } from "./answer-text.js";
import { DECIMAL_EXAMPLE, DIGIT_COMMA, readVector } from "./answer-vector.js";

export { readNumber, readVector, Unreadable };

/** 10 to the power k, correctly rounded like Python's 10.0 ** k; V8's 10 ** -4 is a unit off. */
const tenTo = (k) => Number(`1e${k}`);

const exact = (spec) => spec.decimals === null || spec.decimals === undefined;

/** Half a unit in the last asked decimal, plus slack for binary rounding. */
export const tolerance = (spec) => (exact(spec) ? 1e-9 : 0.5 * tenTo(-spec.decimals) + 1e-9);

/** Whether a miss this size looks like rounding too early rather than a mistake. */
const nearly = (spec, gap) => (exact(spec) ? gap < 0.5 : gap <= tenTo(1 - spec.decimals));

/** The rest of a sentence saying "close": what to do about it. */
const keepPrecision = (spec) =>
  exact(spec)
    ? ", but this answer is exact: no rounding is needed."
    : `. Work with unrounded values and give ${spec.decimals} decimals.`;

/** What the student typed, as a number or (for a vector answer) a list; throws Unreadable. */
export const readAnswer = (spec, text) => (Array.isArray(spec.answer) ? readVector(text) : readNumber(text));

function close(spec, value, target) {
  if (Array.isArray(target)) {
    return (
      Array.isArray(value) &&
      value.length === target.length &&
      value.every((v, i) => Math.abs(v - target[i]) <= tolerance(spec))
    );
  }
  return !Array.isArray(value) && Math.abs(value - target) <= tolerance(spec);
}

/**
 * Judge typed text: {verdict: "correct" | "wrong" | "unreadable", message}, and for an
 * unreadable entry the column to mark (or null). An unreadable entry is not an attempt.
 */
export function gradeNumeric(spec, text) {
  let value;
  try {
    value = readAnswer(spec, text);
  } catch (err) {
    if (!(err instanceof Unreadable)) throw err;
    return { verdict: "unreadable", message: err.message, column: err.column };
  }
  if (close(spec, value, spec.answer)) return { verdict: "correct", message: "" };
  for (const [wrongValue, message] of spec.wrong ?? []) {
    if (close(spec, value, wrongValue)) return { verdict: "wrong", message };
  }
  return { verdict: "wrong", message: whyWrong(spec, value, text) };
}

function entries(numbers) {
  if (numbers.length === 1) return `Entry ${numbers[0]} is`;
  return `Entries ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]} are`;
}

/** Feedback for a wrong value: close but rounded too early, or off. */
function whyWrong(spec, value, text) {
  if (Array.isArray(spec.answer)) {
    if (value.length !== spec.answer.length) {
      const count = `The answer has ${spec.answer.length} numbers; you gave ${value.length}.`;
      if (!DIGIT_COMMA.test(typographic(text))) return count;
      return (
        `${count} If a comma in a number was meant as a decimal point, put “;” or ` +
        `blanks between the numbers, as in ${DECIMAL_EXAMPLE}.`
      );
    }
    const gaps = value.map((v, i) => Math.abs(v - spec.answer[i]));
    const numbered = (keep) => gaps.flatMap((gap, i) => (keep(gap) ? [i + 1] : []));
    const far = numbered((gap) => !nearly(spec, gap));
    if (far.length) return `${entries(far.slice(0, 1))} off; check how you computed it.`;
    return `${entries(numbered((gap) => gap > tolerance(spec)))} close${keepPrecision(spec)}`;
  }
  if (nearly(spec, Math.abs(value - spec.answer))) return `Close${keepPrecision(spec)}`;
  return "That is not it. Rework the steps above and try again.";
}
