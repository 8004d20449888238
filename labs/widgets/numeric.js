// A numeric question: the typed text is judged by livelab.answers in the Python worker.

import { progress } from "../progress/store.js";
import { enable, runtimeProblem, showVerdict } from "./verdict.js";

export function mount(el, runtime) {
  const id = el.dataset.question;
  const spec = JSON.parse(el.dataset.spec);
  const field = el.querySelector("input.livelab-field");
  const checkButton = el.querySelector('[data-action="check"]');
  const revealButton = el.querySelector('[data-action="reveal"]');
  const reveal = el.querySelector("[data-reveal]");
  const saved = progress.get("questions", id) ?? {};
  let attempts = Number.isInteger(saved.attempts) ? saved.attempts : 0;

  const save = (verdict, message) =>
    progress.set("questions", id, { kind: "numeric", answer: field.value, verdict, message, attempts });
  const showAnswer = () => {
    reveal.hidden = false;
    revealButton.hidden = true;
  };

  async function check() {
    showVerdict(el, "pending", "Checking…");
    let result;
    try {
      result = await runtime.call("numeric", { spec, text: field.value });
    } catch (err) {
      showVerdict(el, "pending", runtimeProblem(err));
      return;
    }
    if (result.verdict !== "unreadable") attempts += 1;
    showVerdict(el, result.verdict, result.message);
    if (result.verdict === "correct") showAnswer();
    else if (attempts > 0) revealButton.hidden = false;
    if (result.verdict !== "unreadable") save(result.verdict, result.message);
  }

  enable(el);
  if (typeof saved.answer === "string") field.value = saved.answer;
  if (saved.verdict === "correct") {
    showVerdict(el, "correct", "");
    showAnswer();
  } else if (saved.verdict === "wrong") {
    showVerdict(el, "wrong", typeof saved.message === "string" ? saved.message : "");
  }
  revealButton.hidden = revealButton.hidden || attempts === 0;
  const onKey = (event) => event.key === "Enter" && check();
  field.addEventListener("keydown", onKey);
  checkButton.addEventListener("click", check);
  revealButton.addEventListener("click", showAnswer);
  return () => {
    field.removeEventListener("keydown", onKey);
    checkButton.removeEventListener("click", check);
    revealButton.removeEventListener("click", showAnswer);
  };
}
