// The home page's progress table: answered-correctly counts per page from saved progress,
// and a reset that asks first.

import { progress } from "../progress/store.js";
import { enable } from "./verdict.js";

function fill(el) {
  for (const row of el.querySelectorAll("tr[data-page]")) {
    const ids = row.dataset.ids.split(" ").filter(Boolean);
    const saved = progress.questionsOf(row.dataset.page);
    const right = ids.filter((id) => saved[id]?.verdict === "correct").length;
    const tried = ids.filter((id) => saved[id]).length;
    row.querySelector("[data-count]").textContent = `${right} of ${ids.length}`;
    row.querySelector("[data-state]").textContent =
      right === ids.length ? "complete" : tried > 0 ? "in progress" : "not started";
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
  enable(el);
  fill(el);
  for (const button of buttons) button.addEventListener("click", onClick);
  return () => {
    for (const button of buttons) button.removeEventListener("click", onClick);
  };
}
