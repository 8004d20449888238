// A multiple-choice question. A wrong pick shows the reason for that option only, in the
// verdict, and earns the first hint (hints.js). A right pick, or "Show answer" once the hints
// or a few wrong picks have earned it, puts every option's reason under its option (each
// reason once). Reasons stay sealed until then. The options are shown
// in this student's own order (progress/order.js); each keeps its author's index as its value.

import { optionOrder, studentSeed } from "../progress/order.js";
import { ANSWER_SHOWN, QuestionRecord, SHOWN_NOTE } from "../progress/record.js";
import { SITE_ROOT } from "../progress/store.js";
import { answerEarned, hintLadder } from "./hints.js";
import { showMarkup, unseal } from "./sealed.js";
import { enable, markStale, showVerdict } from "./verdict.js";

const ALL_EXPLAINED = "Each option now says why it is right or wrong.";

/** Puts the options in this student's order, from the author's order (so a second mount
 * gives the same order, not a shuffle of the shuffle). */
function shuffle(el) {
  const group = el.querySelector('[role="radiogroup"]');
  const byAuthor = (div) => Number(div.querySelector('input[type="radio"]').value);
  const options = [...group.querySelectorAll(":scope > .livelab-option")];
  options.sort((a, b) => byAuthor(a) - byAuthor(b));
  const order = optionOrder(options.length, el.dataset.question, studentSeed(SITE_ROOT.pathname));
  group.append(...order.map((i) => options[i]));
}

export function mount(el) {
  shuffle(el);
  const record = new QuestionRecord(el.dataset.question, "choice");
  const { correct, why, hints = [] } = unseal(el);
  const radios = [...el.querySelectorAll('input[type="radio"]')];
  const checkButton = el.querySelector('[data-action="check"]');
  const revealButton = el.querySelector('[data-action="reveal"]');
  const isRight = (value) => Number(value) === correct;
  const explained = () => el.classList.contains("livelab-question--answered");
  // Help is over once every option says why (a right pick, or the answer shown).
  const offerAnswer = () => {
    revealButton.hidden = explained() || !answerEarned(record, hints.length);
    ladder.update(explained());
  };
  const ladder = hintLadder(el, record, hints, offerAnswer);

  /** The reason of one option, as the author wrote it (it may hold math), in a slot. */
  function explainIn(slot, value, marked) {
    const mark = marked ? `<strong>${isRight(value) ? "Right." : "Not this one."}</strong> ` : "";
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

  function judge(value) {
    if (isRight(value)) {
      showVerdict(el, "correct", record.shown ? SHOWN_NOTE : ALL_EXPLAINED);
      explainAll();
    } else if (record.shown || record.state === "correct") {
      showVerdict(el, "wrong", ALL_EXPLAINED);
    } else {
      const line = el.querySelector("[data-verdict]");
      showVerdict(el, "wrong");
      explainIn(line, value, false); // puts the reason into the line at once, then typesets
      line.prepend("Not yet. ");
    }
    offerAnswer();
  }

  const check = () => {
    const radio = radios.find((r) => r.checked);
    if (!radio) {
      showVerdict(el, "unreadable", "Pick one of the options first.");
      return;
    }
    record.attempt(radio.value, isRight(radio.value) ? "correct" : "wrong", "");
    judge(radio.value);
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
    const savedRadio = radios.find((radio) => radio.value === record.entry.answer);
    if (savedRadio) savedRadio.checked = true;
    if (record.shown || record.state === "correct") explainAll();
    if (record.shown && !isRight(savedRadio?.value)) {
      showVerdict(el, "shown", `${ANSWER_SHOWN} ${ALL_EXPLAINED}`);
    } else if (savedRadio && record.attempts > 0) judge(savedRadio.value);
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
