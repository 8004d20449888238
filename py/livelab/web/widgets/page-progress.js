// A lesson page's own progress: near the top, "4 of 13 solved" with links to the questions
// still open; at the end, what is still open or was shown, each linked to its question and
// to the lab that helps. Both follow every saved change on the page.

import { questionState, tally, withHintsText } from "../progress/states.js";
import { progress } from "../progress/store.js";

const OPEN_TEXT = { "not-tried": "not tried yet", "not-yet": "not solved yet", shown: "answer shown" };

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
  if (withLab && item.lab) li.append(" ", link(`#${item.lab}`, "the lab that helps"));
  return li;
}

function render(el, top) {
  const items = JSON.parse(el.dataset.items);
  const saved = entries();
  const counts = tally(items.map((item) => item.id), saved);
  const open = items
    .map((item) => [item, questionState(saved[item.id])])
    .filter(([, state]) => state !== "correct");
  const shown =
    withHintsText(counts.withHints) +
    (counts.shown ? `, ${counts.shown} answer${counts.shown === 1 ? "" : "s"} shown` : "");
  const count = el.querySelector("[data-count]");
  if (top) {
    count.textContent = `${counts.solved} of ${counts.total} solved${shown}.`;
  } else if (open.length === 0) {
    count.textContent = `You solved all ${counts.total} questions on this page${withHintsText(counts.withHints)}.`;
  } else {
    count.textContent = `${counts.solved} of ${counts.total} solved${shown}. Still open:`;
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
