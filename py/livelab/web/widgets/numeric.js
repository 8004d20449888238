// A numeric question: the typed text is judged on the page by the JavaScript port of
// livelab.builder.answers (../grading/numeric.js), at once and without the Python worker, so it
// works before Python has started and even if it never starts.
// The answer and its explanation stay sealed until the answer is right or the student asks
// for it, which hints.js offers after the hints or a few wrong checks; an answer shown first
// never counts as solved.

import { gradeNumeric } from "../grading/numeric.js";
import { ANSWER_SHOWN, QuestionRecord, SHOWN_NOTE } from "../progress/record.js";
import { answerEarned, hintLadder } from "./hints.js";
import { showMarkup, unseal } from "./sealed.js";
import { bindSign } from "./sign.js";
import { enable, markColumn, markStale, showVerdict } from "./verdict.js";


export function mount(el) {
  const record = new QuestionRecord(el.dataset.question, "numeric");
  const sealed = unseal(el);
  const field = el.querySelector("input.livelab-field");
  const checkButton = el.querySelector('[data-action="check"]');
  const revealButton = el.querySelector('[data-action="reveal"]');
  const reveal = el.querySelector("[data-reveal]");

  const showAnswer = () => {
    showMarkup(reveal, sealed.reveal);
    revealButton.hidden = true;
  };
  const hints = sealed.hints ?? [];
  // Help is over once the answer is on screen (right, or shown).
  const offerAnswer = () => {
    revealButton.hidden = !reveal.hidden || !answerEarned(record, hints.length);
    ladder.update(!reveal.hidden);
  };
  const ladder = hintLadder(el, record, hints, offerAnswer);
  const askedForAnswer = () => {
    record.reveal();
    showAnswer();
    if (record.shown) showVerdict(el, "shown", ANSWER_SHOWN);
    offerAnswer();
  };

  // A check runs to its end before the next event, so a second Enter is a second check,
  // never one that lands while the first is still out; a held-down Enter is one check.
  function check() {
    const result = gradeNumeric(sealed.spec, field.value);
    if (result.verdict === "unreadable") {
      showVerdict(el, "unreadable", result.message);
      markColumn(field, result.column);
      return;
    }
    record.attempt(field.value, result.verdict, result.message);
    const correct = result.verdict === "correct";
    showVerdict(el, result.verdict, correct && record.shown ? SHOWN_NOTE : result.message);
    if (correct) showAnswer();
    offerAnswer();
  }

  /** Shows what is saved: at mount, and when another tab saved this question. */
  function restore() {
    const saved = record.entry;
    if (typeof saved.answer === "string" && document.activeElement !== field) field.value = saved.answer;
    if (record.state === "correct" || record.shown) showAnswer();
    if (saved.verdict === "correct") {
      showVerdict(el, "correct", record.shown ? SHOWN_NOTE : "");
    } else if (record.shown) {
      showVerdict(el, "shown", ANSWER_SHOWN);
    } else if (saved.verdict === "wrong") {
      showVerdict(el, "wrong", typeof saved.message === "string" ? saved.message : "");
    }
    offerAnswer();
  }

  enable(el);
  restore();
  const onKey = (event) => event.key === "Enter" && !event.repeat && check();
  const onInput = () => markStale(el);
  field.addEventListener("keydown", onKey);
  field.addEventListener("input", onInput);
  checkButton.addEventListener("click", check);
  revealButton.addEventListener("click", askedForAnswer);
  const unfollow = record.follow(restore);
  const unbindSign = bindSign(el); // "±" beside a number field: its input event marks stale
  return () => {
    unfollow();
    ladder.unmount();
    field.removeEventListener("keydown", onKey);
    field.removeEventListener("input", onInput);
    checkButton.removeEventListener("click", check);
    revealButton.removeEventListener("click", askedForAnswer);
    unbindSign();
  };
}
