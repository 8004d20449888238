// A numeric question: the typed text is judged by livelab.answers in the Python worker.
// The answer and its explanation stay sealed until the answer is right or the student asks
// for it after an attempt; an answer shown first never counts as solved.

import { QuestionRecord } from "../progress/record.js";
import { showMarkup, unseal } from "./sealed.js";
import { enable, markColumn, markStale, runtimeProblem, showUnavailable, showVerdict } from "./verdict.js";

const SHOWN_NOTE = "The answer was shown first, so this question counts as shown, not solved.";

export function mount(el, runtime) {
  const record = new QuestionRecord(el.dataset.question, "numeric");
  const sealed = unseal(el);
  const field = el.querySelector("input.livelab-field");
  const checkButton = el.querySelector('[data-action="check"]');
  const revealButton = el.querySelector('[data-action="reveal"]');
  const reveal = el.querySelector("[data-reveal]");
  let checking = false;

  const showAnswer = () => {
    showMarkup(reveal, sealed.reveal);
    revealButton.hidden = true;
  };
  const askedForAnswer = () => {
    record.reveal();
    showAnswer();
  };
  const offerAnswer = () => {
    revealButton.hidden = record.attempts === 0 || !reveal.hidden;
  };

  async function check() {
    if (checking) return; // Enter pressed again while a check runs: ignored, not counted
    checking = true;
    showVerdict(el, "pending", "Checking…");
    let result;
    try {
      result = await runtime.call("numeric", { spec: sealed.spec, text: field.value });
    } catch (err) {
      if (err.type === "RuntimeUnavailable") showUnavailable(el, err, runtime);
      else showVerdict(el, "pending", runtimeProblem(err));
      return;
    } finally {
      checking = false;
    }
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
    } else if (saved.verdict === "wrong") {
      showVerdict(el, "wrong", typeof saved.message === "string" ? saved.message : "");
    }
    offerAnswer();
  }
  const onSaved = (event) => {
    if (!event.detail.external || checking) return;
    record.refresh();
    restore();
  };

  enable(el);
  restore();
  const onKey = (event) => event.key === "Enter" && check();
  const onInput = () => markStale(el);
  field.addEventListener("keydown", onKey);
  field.addEventListener("input", onInput);
  checkButton.addEventListener("click", check);
  revealButton.addEventListener("click", askedForAnswer);
  document.addEventListener("livelab:progress", onSaved);
  return () => {
    document.removeEventListener("livelab:progress", onSaved);
    field.removeEventListener("keydown", onKey);
    field.removeEventListener("input", onInput);
    checkButton.removeEventListener("click", check);
    revealButton.removeEventListener("click", askedForAnswer);
  };
}
