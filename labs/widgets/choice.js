// A multiple-choice question. After a check every option shows why it is right or wrong;
// the reasons were written into the page at build time and are only unhidden here.

import { progress } from "../progress/store.js";
import { enable, showVerdict } from "./verdict.js";

export function mount(el) {
  const id = el.dataset.question;
  const correct = el.dataset.correct;
  const radios = [...el.querySelectorAll('input[type="radio"]')];
  const checkButton = el.querySelector('[data-action="check"]');
  const saved = progress.get("questions", id) ?? {};
  let attempts = Number.isInteger(saved.attempts) ? saved.attempts : 0;

  const chosen = () => radios.find((radio) => radio.checked);
  const whyOf = (value) => el.querySelector(`[data-why="${CSS.escape(value)}"]`);

  function judge(value, count) {
    for (const why of el.querySelectorAll("[data-why]")) why.hidden = false;
    const verdict = value === correct ? "correct" : "wrong";
    showVerdict(el, verdict, "");
    // The reason is the author's own build-time markup (it may hold typeset math), so its
    // nodes are cloned into the verdict rather than flattened to text.
    const reason = whyOf(value).cloneNode(true);
    reason.querySelector("strong")?.remove();
    el.querySelector("[data-verdict]").append(...reason.childNodes);
    if (count) {
      attempts += 1;
      progress.set("questions", id, { kind: "choice", answer: value, verdict, attempts });
    }
  }

  const check = () => {
    const radio = chosen();
    if (!radio) showVerdict(el, "unreadable", "Pick one of the options first.");
    else judge(radio.value, true);
  };

  enable(el);
  const savedRadio = radios.find((radio) => radio.value === saved.answer);
  if (savedRadio) {
    savedRadio.checked = true;
    judge(savedRadio.value, false);
  }
  checkButton.addEventListener("click", check);
  return () => checkButton.removeEventListener("click", check);
}
