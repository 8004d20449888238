// The home page's progress table: solved questions per page (a shown answer is not solved),
// how many answers were shown, and a reset that asks first.

import { tally } from "../progress/states.js";
import { progress } from "../progress/store.js";
import { enable } from "./verdict.js";

function fill(el) {
  for (const row of el.querySelectorAll("tr[data-page]")) {
    const ids = row.dataset.ids.split(" ").filter(Boolean);
    const counts = tally(ids, progress.questionsOf(row.dataset.page));
    row.querySelector("[data-count]").textContent = `${counts.solved} of ${counts.total}`;
    row.querySelector("[data-shown]").textContent = String(counts.shown);
    row.querySelector("[data-state]").textContent =
      counts.solved === counts.total ? "complete" : counts.tried > 0 ? "in progress" : "not started";
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
