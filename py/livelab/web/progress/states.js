// What a saved question means for progress. One place decides; the home table, the page's
// progress line, its summary and the widgets all read it.
//
// A saved question entry: {kind, answer, verdict, message, attempts, solvedAt?, shown?}.
// solvedAt is the attempt that first got it right before any answer was shown (1 = first
// try); shown is true once the answer was shown before it was solved. A shown answer never
// counts as solved, also when the student types it in afterwards.
// Hints asked for (hints?) change no state: a question helped by its hints and then
// answered right is solved, and counted apart as solved with hints (hintsAtSolve > 0, the
// hints asked for before the first solve) so progress can say how much help it took.

import { t } from "../i18n.js";

export const STATES = {
  "not-tried": t("progress.state_not_tried"),
  "not-yet": t("progress.state_not_yet"),
  correct: t("progress.state_solved"),
  shown: t("progress.state_shown"),
};

/** The state of a saved entry (or of no entry): one of the keys of STATES. */
export function questionState(entry) {
  if (!entry || typeof entry !== "object") return "not-tried";
  if (Number.isInteger(entry.solvedAt) && entry.solvedAt > 0) return "correct";
  if (entry.shown === true) return "shown";
  return Number.isInteger(entry.attempts) && entry.attempts > 0 ? "not-yet" : "not-tried";
}

/** Solved with hints, for one count of them: " (1 with hints)", or "" for none. */
export const withHintsText = (count) => (count > 0 ? ` ${t("progress.with_hints", { count })}` : "");

/** Counts over a list of question ids: {solved, withHints, shown, tried, total, firstTry}. */
export function tally(ids, entries) {
  const counts = { solved: 0, withHints: 0, shown: 0, tried: 0, total: ids.length, firstTry: 0 };
  for (const id of ids) {
    const state = questionState(entries[id]);
    if (state === "correct") counts.solved += 1;
    if (state === "shown") counts.shown += 1;
    if (state !== "not-tried") counts.tried += 1;
    if (state === "correct" && entries[id].solvedAt === 1) counts.firstTry += 1;
    if (state === "correct" && entries[id].hintsAtSolve > 0) counts.withHints += 1;
  }
  return counts;
}
