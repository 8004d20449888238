// A multiple-choice question. A wrong pick shows the reason for that option only, in the
// verdict, and earns the first hint (hints.js). With several right options (checkboxes; the
// sealed `correct` is then a list) the picks are graded as a whole: a wrong check shows the
// reason of each wrong pick and how many right options are not picked, never which. A right pick, or "Show answer" once the hints
// or a few wrong picks have earned it, puts every option's reason under its option (each
// reason once). Reasons stay sealed until then. The options are shown
// in this student's own order (progress/order.js); each keeps its author's index as its value.

import { t } from "../i18n.js";
import { optionOrder, studentSeed } from "../progress/order.js";
import { ANSWER_SHOWN, QuestionRecord, SHOWN_NOTE } from "../progress/record.js";
import { SITE_ROOT } from "../progress/store.js";
import { answerEarned, hintLadder } from "./hints.js";
import { showMarkup, unseal } from "./sealed.js";
import { enable, markStale, showVerdict } from "./verdict.js";

const ALL_EXPLAINED = t("choice.all_explained");
const CHOICES = 'input[type="radio"], input[type="checkbox"]';

/** As livelab.builder.kinds.choice.not_picked says it (in English). */
const notPicked = (count) => t("choice.not_picked", { count });

/** Puts the options in this student's order, from the author's order (so a second mount
 * gives the same order, not a shuffle of the shuffle). */
function shuffle(el) {
  const group = el.querySelector('[role="radiogroup"], [role="group"]');
  const byAuthor = (div) => Number(div.querySelector(CHOICES).value);
  const options = [...group.querySelectorAll(":scope > .livelab-option")];
  options.sort((a, b) => byAuthor(a) - byAuthor(b));
  const order = optionOrder(options.length, el.dataset.question, studentSeed(SITE_ROOT.pathname));
  group.append(...order.map((i) => options[i]));
}

export function mount(el) {
  shuffle(el);
  const record = new QuestionRecord(el.dataset.question, "choice");
  const { correct, why, hints = [] } = unseal(el);
  const radios = [...el.querySelectorAll(CHOICES)];
  const checkButton = el.querySelector('[data-action="check"]');
  const revealButton = el.querySelector('[data-action="reveal"]');
  const multiple = Array.isArray(correct);
  const isRight = (value) => (multiple ? correct.includes(Number(value)) : Number(value) === correct);
  // An answer is one index, or for several the picked indices in order, "0,2".
  const picks = (answer) => String(answer ?? "").split(",").filter(Boolean);
  const wholeRight = (answer) =>
    multiple
      ? picks(answer).length === correct.length && picks(answer).every(isRight)
      : isRight(answer);
  const explained = () => el.classList.contains("livelab-question--answered");
  // Help is over once every option says why (a right pick, or the answer shown).
  const offerAnswer = () => {
    revealButton.hidden = explained() || !answerEarned(record, hints.length);
    ladder.update(explained());
  };
  const ladder = hintLadder(el, record, hints, offerAnswer);

  /** The reason of one option, as the author wrote it (it may hold math), in a slot. */
  function explainIn(slot, value, marked) {
    const mark = marked ? `<strong>${isRight(value) ? t("choice.right") : t("choice.wrong")}</strong> ` : "";
    return showMarkup(slot, mark + why[Number(value)]);
  }

  function explainAll() {
    el.classList.add("livelab-question--answered");
    for (const slot of el.querySelectorAll("[data-why]")) {
      slot.classList.add(isRight(slot.dataset.why) ? "livelab-why--right" : "livelab-why--wrong");
      explainIn(slot, slot.dataset.why, true);
    }
    revealButton.hidden = true;
  }

  /** A wrong set of picks: each wrong pick's reason, then how many right ones are missing. */
  function explainPicks(line, answer) {
    const picked = picks(answer);
    const said = picked.filter((v) => !isRight(v)).map((v) => why[Number(v)]);
    const missing = correct.length - picked.filter(isRight).length;
    if (missing > 0) said.push(notPicked(missing));
    return showMarkup(line, said.join(" "));
  }

  function judge(value) {
    if (wholeRight(value)) {
      showVerdict(el, "correct", record.shown ? SHOWN_NOTE : ALL_EXPLAINED);
      explainAll();
    } else if (record.shown || record.state === "correct") {
      showVerdict(el, "wrong", ALL_EXPLAINED);
    } else {
      const line = el.querySelector("[data-verdict]");
      showVerdict(el, "wrong");
      // Puts the reason into the line at once, then typesets.
      if (multiple) explainPicks(line, value);
      else explainIn(line, value, false);
      line.prepend(`${t("verdict.not_yet")} `);
    }
    offerAnswer();
  }

  const check = () => {
    const answer = radios
      .filter((r) => r.checked)
      .map((r) => Number(r.value))
      .sort((a, b) => a - b)
      .join(",");
    if (!answer) {
      const ask = multiple ? t("choice.pick_some") : t("choice.pick_one");
      showVerdict(el, "unreadable", ask);
      return;
    }
    record.attempt(answer, wholeRight(answer) ? "correct" : "wrong", "");
    judge(answer);
  };
  const reveal = () => {
    record.reveal();
    explainAll();
    showVerdict(el, "shown", `${ANSWER_SHOWN} ${ALL_EXPLAINED}`);
    offerAnswer();
  };
  const onChange = () => markStale(el);

  /** Shows what is saved: at mount, and when another tab saved this question. */
  function restore() {
    const saved = typeof record.entry.answer === "string" ? record.entry.answer : "";
    const savedPicks = picks(saved);
    // Nothing saved leaves the student's unchecked picks as they are.
    if (savedPicks.length) for (const radio of radios) radio.checked = savedPicks.includes(radio.value);
    const picked = radios.some((radio) => radio.checked);
    if (record.shown || record.state === "correct") explainAll();
    if (record.shown && !(picked && wholeRight(saved))) {
      showVerdict(el, "shown", `${ANSWER_SHOWN} ${ALL_EXPLAINED}`);
    } else if (picked && record.attempts > 0) judge(saved);
    offerAnswer();
  }

  enable(el);
  restore();
  const unfollow = record.follow(restore);
  checkButton.addEventListener("click", check);
  revealButton.addEventListener("click", reveal);
  for (const radio of radios) radio.addEventListener("change", onChange);
  return () => {
    unfollow();
    ladder.unmount();
    checkButton.removeEventListener("click", check);
    revealButton.removeEventListener("click", reveal);
    for (const radio of radios) radio.removeEventListener("change", onChange);
  };
}
