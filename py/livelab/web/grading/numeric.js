// Grading a numeric answer on the page, exactly as livelab.builder.answers grades it in Python
// (at build time), so a numeric question needs no worker: it is answered before Python has
// started, or if it never starts. The spec is the fence's NumericSpec.to_json(): {answer,
// decimals, wrong}. Same operations in the same order as Python, so verdicts and messages
// agree; the shared vectors (tests/answer_vectors.json) hold the two to that. The messages are
// in the site's language (../i18n.js), in English word for word Python's.

import { t } from "../i18n.js";
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

/** "Close" with what to do about it, for the answer or (numbers given) some of its entries. */
function closeText(spec, numbers = null) {
  const entries = numbers && entryList(numbers);
  const count = numbers?.length;
  if (exact(spec)) {
    return numbers ? t("answer.entries_close_exact", { entries, count }) : t("answer.close_exact");
  }
  const close = numbers ? t("answer.entries_close", { entries, count }) : t("answer.close");
  return `${close} ${t("answer.give_decimals", { count: spec.decimals })}`;
}

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

/** Entry numbers as a person lists them: "2", "1 and 3", "1, 2 and 4". */
function entryList(numbers) {
  if (numbers.length === 1) return String(numbers[0]);
  return t("widget.and", { first: numbers.slice(0, -1).join(", "), second: numbers[numbers.length - 1] });
}

/** Feedback for a wrong value: close but rounded too early, or off. */
function whyWrong(spec, value, text) {
  if (Array.isArray(spec.answer)) {
    if (value.length !== spec.answer.length) {
      const count = t("answer.count_numbers", { count: spec.answer.length, given: value.length });
      if (!DIGIT_COMMA.test(typographic(text))) return count;
      return `${count} ${t("answer.decimal_comma_hint", { example: DECIMAL_EXAMPLE })}`;
    }
    const gaps = value.map((v, i) => Math.abs(v - spec.answer[i]));
    const numbered = (keep) => gaps.flatMap((gap, i) => (keep(gap) ? [i + 1] : []));
    const far = numbered((gap) => !nearly(spec, gap));
    if (far.length) return t("answer.entry_off", { entry: far[0] });
    return closeText(spec, numbered((gap) => gap > tolerance(spec)));
  }
  if (nearly(spec, Math.abs(value - spec.answer))) return closeText(spec);
  return t("answer.not_it");
}
