// One question's saved record: attempts, the first solve, a shown answer, the hints shown,
// the last answer.
// The question widgets change a question's progress only through this. Every change starts
// from what is stored now, so attempts made in another tab are counted, not overwritten.

import { language, t } from "../i18n.js";
import { ANSWER_LIMIT } from "./schema.js";
import { questionState } from "./states.js";
import { progress } from "./store.js";

const whole = (value) => (Number.isInteger(value) && value >= 0 ? value : 0);

/** Said with a correct verdict when the answer had been shown: it is not counted as solved. */
export const SHOWN_NOTE = t("progress.shown_note");

/** The verdict line once the student asked for the answer: it replaces the last "Not yet." */
export const ANSWER_SHOWN = t("progress.answer_shown");

export const CUT_NOTE = t("progress.answer_cut", { limit: ANSWER_LIMIT.toLocaleString(language) });

export class QuestionRecord {
  constructor(id, kind) {
    this.id = id;
    this.kind = kind;
    this.refresh();
  }

  /** Reads the stored entry again (after another tab saved, or before a change). */
  refresh() {
    const saved = progress.get("questions", this.id) ?? {};
    this.entry = { ...saved, kind: this.kind, attempts: whole(saved.attempts) };
    return this.entry;
  }

  get state() {
    return questionState(this.entry);
  }

  get attempts() {
    return this.entry.attempts;
  }

  get failures() {
    return whole(this.entry.failures);
  }

  get shown() {
    return this.entry.shown === true;
  }

  /** How many of the question's hints the student has asked for. */
  get hintsShown() {
    return whole(this.entry.hints);
  }

  /** A graded attempt: counts it, and marks the first solve unless the answer was shown. */
  attempt(answer, verdict, message) {
    const entry = this.refresh();
    entry.attempts += 1;
    entry.failures = whole(entry.failures) + (verdict === "correct" ? 0 : 1);
    Object.assign(entry, { verdict, message: message.slice(0, ANSWER_LIMIT) });
    if (verdict === "correct" && !entry.solvedAt && !entry.shown) {
      entry.solvedAt = entry.attempts;
      entry.hintsAtSolve = whole(entry.hints); // "solved" or "solved with hints"
    }
    return this.save(answer);
  }

  /** The student's text, kept before it is checked so a reload does not lose it. */
  draft(answer) {
    this.refresh();
    return this.save(answer);
  }

  /** One more hint asked for (of `total`); a hint never counts as shown or solved. */
  showHint(total) {
    const entry = this.refresh();
    entry.hints = Math.min(total, whole(entry.hints) + 1);
    this.save(entry.answer ?? "");
    return entry.hints;
  }

  /** The answer was shown: unless it was already solved, it now never counts as solved. */
  reveal() {
    const entry = this.refresh();
    if (!entry.solvedAt) entry.shown = true;
    this.save(entry.answer ?? "");
  }

  /**
   * Calls show() whenever another tab saved this question, after reading it again, unless
   * busy() says a check is under way; returns the function that stops following. Another
   * question saved elsewhere leaves this one alone: what the student picked or typed here
   * and has not checked yet stays.
   */
  follow(show, busy = () => false) {
    const onSaved = (event) => {
      if (!event.detail.external || busy()) return;
      const before = JSON.stringify(this.entry);
      if (JSON.stringify(this.refresh()) !== before) show();
    };
    document.addEventListener("livelab:progress", onSaved);
    return () => document.removeEventListener("livelab:progress", onSaved);
  }

  /** Saves with the answer capped; true when the answer had to be cut to fit. */
  save(answer) {
    const text = String(answer);
    this.entry.answer = text.slice(0, ANSWER_LIMIT);
    this.entry.touchedAt = Date.now(); // every save is the student's doing: home's "Continue"
    progress.set("questions", this.id, { ...this.entry });
    return text.length > ANSWER_LIMIT;
  }
}
