// The help every kind of question gives before its answer: a ladder of hints, then "Show
// answer". One honest attempt (a counted check that was not right) earns the first hint; each
// press of Hint shows the next, and every hint shown stays, in order. "Show answer" is offered
// once every hint has been shown, or after HONEST_TRIES wrong checks (a question without hints
// waits for those). Hints are sealed like the answer, kept in saved progress (a reload or
// another tab shows them again), and never make a question count as shown or solved.

import { t } from "../i18n.js";
import { showMarkup } from "./sealed.js";

/** Wrong checks after which "Show answer" is offered even before the last hint. */
export const HONEST_TRIES = 3;

/** Whether "Show answer" may be offered: after every hint, or after HONEST_TRIES wrong checks. */
export function answerEarned(record, hintCount) {
  if (record.failures === 0) return false;
  return record.failures >= HONEST_TRIES || (hintCount > 0 && record.hintsShown >= hintCount);
}

/**
 * The question's Hint button and its list of hints (markup sealed at build, in order).
 * update(closed) shows the hints asked for so far and offers the next one unless closed (the
 * question is solved or its answer is on screen); after each press, changed() lets the widget
 * offer "Show answer". Returns {update, unmount}.
 */
export function hintLadder(el, record, hints, changed) {
  const button = el.querySelector('[data-action="hint"]');
  const list = el.querySelector("[data-hints]");
  list.tabIndex = -1; // where focus goes when the last hint takes the button's use away

  function showUpTo(count) {
    if (list.children.length > count) list.replaceChildren(); // another tab reset the progress
    while (list.children.length < count) {
      const index = list.children.length;
      const item = document.createElement("li");
      item.className = "livelab-hint";
      list.append(item);
      showMarkup(item, hints[index]); // puts the markup in at once, then typesets any math
      const label = document.createElement("strong");
      label.textContent = `${t("hints.label", { number: index + 1, total: hints.length })} `;
      const first = item.firstElementChild;
      (first?.tagName === "P" ? first : item).prepend(label);
    }
    list.hidden = count === 0;
  }

  function update(closed) {
    const count = Math.min(record.hintsShown, hints.length);
    showUpTo(count);
    const more = count < hints.length;
    button.hidden = closed || hints.length === 0 || record.failures === 0;
    // Kept in place once the hints run out, so "Show answer" never lands under a second tap.
    button.disabled = !more;
    button.textContent = more
      ? t("hints.next", { number: count + 1, total: hints.length })
      : t("hints.none_left");
  }

  const press = () => {
    if (record.failures === 0 || record.hintsShown >= hints.length) return;
    const focused = document.activeElement === button;
    record.showHint(hints.length);
    changed();
    if (focused && button.disabled) list.focus();
  };

  button.addEventListener("click", press);
  return {
    update(closed) {
      update(closed);
      // Announced from now on: each new hint, not the ones a reload puts back.
      list.setAttribute("aria-live", "polite");
    },
    unmount: () => button.removeEventListener("click", press),
  };
}
