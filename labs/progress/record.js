// One question's saved record: attempts, the first solve, a shown answer, the last answer.
// The question widgets change a question's progress only through this.

import { progress } from "./store.js";
import { questionState } from "./states.js";

const whole = (value) => (Number.isInteger(value) && value >= 0 ? value : 0);

export class QuestionRecord {
  constructor(id, kind) {
    this.id = id;
    this.kind = kind;
    const saved = progress.get("questions", id) ?? {};
    this.entry = { ...saved, kind, attempts: whole(saved.attempts) };
  }

  get state() {
    return questionState(this.entry);
  }

  get attempts() {
    return this.entry.attempts;
  }

  get shown() {
    return this.entry.shown === true;
  }

  /** A graded attempt: counts it, and marks the first solve unless the answer was shown. */
  attempt(answer, verdict, message, extra = {}) {
    const entry = this.entry;
    entry.attempts += 1;
    Object.assign(entry, extra, { answer, verdict, message });
    if (verdict === "correct" && !entry.solvedAt && !entry.shown) entry.solvedAt = entry.attempts;
    this.save();
  }

  /** The student's text, kept before it is checked so a reload does not lose it. */
  draft(answer) {
    this.entry.answer = answer;
    this.save();
  }

  /** The answer was shown: unless it was already solved, it now never counts as solved. */
  reveal() {
    if (!this.entry.solvedAt) this.entry.shown = true;
    this.save();
  }

  save() {
    progress.set("questions", this.id, { ...this.entry });
  }
}
