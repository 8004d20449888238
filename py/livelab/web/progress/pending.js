// Changes to saved progress not yet written, in the order they were made. While storage is
// full every change waits here; each attempt to write applies all of them, in order, to what
// is stored at that moment, so none is lost when space frees up and another tab's changes
// written meanwhile are kept too.

import { t } from "../i18n.js";
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
    const parts = [];
    if (items.questions.size) parts.push(t("progress.pending_answers", { count: items.questions.size }));
    if (items.labs.size) parts.push(t("progress.pending_lab_settings", { count: items.labs.size }));
    if (this.changes.some((change) => change.reset)) parts.unshift(t("progress.pending_reset"));
    if (parts.length === 0) return t("progress.pending_nothing");
    return parts.reduce((first, second) => t("widget.and", { first, second }));
  }
}
