// The home page's progress table: solved questions per page (a shown answer is not solved),
// how many answers were shown, a reset that asks first, and above it a link to the question or
// lab the student last worked on.

import { t } from "../i18n.js";
import { tally, withHintsText } from "../progress/states.js";
import { progress } from "../progress/store.js";
import { enable } from "./verdict.js";

/**
 * The question or lab the student last worked on, among those the table's pages still have:
 * {href, name} for home's "Continue where you left off", or null when nothing was touched.
 */
function lastTouched(el) {
  let last = null;
  for (const row of el.querySelectorAll("tr[data-page]")) {
    const titles = JSON.parse(row.dataset.titles);
    const saved = { questions: progress.questionsOf(row.dataset.page), labs: progress.labsOf(row.dataset.page) };
    for (const section of ["questions", "labs"]) {
      for (const [id, entry] of Object.entries(saved[section])) {
        const title = Object.hasOwn(titles[section], id) ? titles[section][id] : null;
        if (title === null || !(entry.touchedAt > (last?.at ?? 0))) continue;
        const page = row.querySelector("a");
        const href = `${page.getAttribute("href")}#${encodeURIComponent(id)}`;
        last = { at: entry.touchedAt, href, name: `${title} (${page.textContent})` };
      }
    }
  }
  return last;
}

function fillContinue(el) {
  const line = el.querySelector("[data-continue]");
  const last = lastTouched(el);
  line.hidden = last === null;
  if (!last) return line.replaceChildren();
  const link = document.createElement("a");
  link.href = last.href;
  link.textContent = t("progress.continue", { name: last.name });
  line.replaceChildren(link);
}

function fill(el) {
  fillContinue(el);
  for (const row of el.querySelectorAll("tr[data-page]")) {
    const ids = row.dataset.ids.split(" ").filter(Boolean);
    const counts = tally(ids, progress.questionsOf(row.dataset.page));
    const help = withHintsText(counts.withHints);
    row.querySelector("[data-count]").textContent = t("progress.row_count", { ...counts, help });
    row.querySelector("[data-shown]").textContent = String(counts.shown);
    row.querySelector("[data-state]").textContent =
      counts.solved === counts.total
        ? t("progress.page_complete")
        : counts.tried > 0
          ? t("progress.page_in_progress")
          : t("progress.page_not_started");
  }
  const note = el.querySelector("[data-storage-note]");
  note.textContent = progress.problem;
  note.hidden = progress.problem === "";
}

export function mount(el) {
  const confirm = el.querySelector("[data-confirm]");
  const actions = {
    reset: () => (confirm.hidden = false),
    "cancel-reset": () => (confirm.hidden = true),
    "confirm-reset": () => {
      progress.reset();
      confirm.hidden = true;
      fill(el);
    },
  };
  const onClick = (event) => actions[event.currentTarget.dataset.action]?.();
  const buttons = [...el.querySelectorAll("[data-action]")];
  const refill = () => fill(el); // storage full, then written: the note follows
  enable(el);
  fill(el);
  for (const button of buttons) button.addEventListener("click", onClick);
  document.addEventListener("livelab:storage", refill);
  return () => {
    for (const button of buttons) button.removeEventListener("click", onClick);
    document.removeEventListener("livelab:storage", refill);
  };
}
