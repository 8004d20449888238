// Changes to saved progress not yet written, in the order they were made. While storage is
// full every change waits here; each attempt to write applies all of them, in order, to what
// is stored at that moment, so none is lost when space frees up and another tab's changes
// written meanwhile are kept too.

import { emptyProgress, map } from "./schema.js";

export class PendingChanges {
  constructor() {
    this.changes = [];
  }

  get size() {
    return this.changes.length;
  }

  /** One item set to a value: {page, section, id, value}. */
  set(page, section, id, value) {
    this.changes.push({ page, section, id, value });
  }

  /** Everything forgotten: what was waiting before no longer matters. */
  reset() {
    this.changes = [{ reset: true }];
  }

  clear() {
    this.changes = [];
  }

  /** data with every waiting change made to it, in order (data itself is changed). */
  applyTo(data) {
    let result = data;
    for (const change of this.changes) {
      if (change.reset) {
        result = emptyProgress();
        continue;
      }
      const page = (result.pages[change.page] ??= map());
      (page[change.section] ??= map())[change.id] = change.value;
    }
    return result;
  }

  /** What waits, for a person: "2 answers and 1 lab setting" (each item once). */
  describe() {
    const items = { questions: new Set(), labs: new Set() };
    for (const change of this.changes) {
      if (!change.reset) items[change.section]?.add(`${change.page}\n${change.id}`);
    }
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    const parts = [];
    if (items.questions.size) parts.push(count(items.questions.size, "answer", "answers"));
    if (items.labs.size) parts.push(count(items.labs.size, "lab setting", "lab settings"));
    if (this.changes.some((change) => change.reset)) parts.unshift("the reset of your progress");
    return parts.join(" and ") || "nothing";
  }
}
