// A lesson page's own progress: near the top, "4 of 13 solved" with links to the questions
// still open; at the end, what is still open or was shown, each linked to its question and
// to the lab that helps. Both follow every saved change on the page.

import { t } from "../i18n.js";
import { questionState, tally, withHintsText } from "../progress/states.js";
import { progress } from "../progress/store.js";

const OPEN_TEXT = {
  "not-tried": t("progress.open_not_tried"),
  "not-yet": t("progress.open_not_yet"),
  shown: t("progress.open_shown"),
};

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function entries() {
  return progress.questionsOf(progress.pageKey());
}

function listItem(item, state, withLab) {
  const li = document.createElement("li");
  // The link's name is the question's own title, as the page shows it at the question.
  const where = item.section ? `${item.section}, ` : "";
  li.append(link(`#${item.id}`, item.title), ` (${where}${OPEN_TEXT[state]})`);
  if (withLab && item.lab) li.append(" ", link(`#${item.lab}`, t("progress.lab_that_helps")));
  return li;
}

function render(el, top) {
  const items = JSON.parse(el.dataset.items);
  const saved = entries();
  const counts = tally(items.map((item) => item.id), saved);
  const open = items
    .map((item) => [item, questionState(saved[item.id])])
    .filter(([, state]) => state !== "correct");
  const help =
    withHintsText(counts.withHints) +
    (counts.shown ? `, ${t("progress.answers_shown", { count: counts.shown })}` : "");
  const solved = { count: counts.solved, total: counts.total, help };
  const count = el.querySelector("[data-count]");
  if (top) {
    count.textContent = t("progress.page_solved", solved);
  } else if (open.length === 0) {
    const hints = withHintsText(counts.withHints);
    count.textContent = t("progress.page_all_solved", { count: counts.total, help: hints });
  } else {
    count.textContent = t("progress.page_still_open", solved);
  }
  const list = el.querySelector("[data-open]");
  // The top keeps to the unsolved ones it links; the summary also names shown answers and labs.
  list.replaceChildren(...open.map(([item, state]) => listItem(item, state, !top)));
  list.hidden = open.length === 0;
}

export function mount(el) {
  const top = el.dataset.livelab === "page-progress";
  // Lab positions are saved on every slider move; only questions change what is listed here.
  const update = (event) => event?.detail?.section !== "labs" && render(el, top);
  update();
  document.addEventListener("livelab:progress", update);
  return () => document.removeEventListener("livelab:progress", update);
}
