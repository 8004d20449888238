// A fill-in-the-blank code question. Run shows what the example prints; Check asks the
// grader (livelab.grading in the worker) for a verdict. Output is always text. Stop ends a
// running program; the runtime also stops it after its time limit.

import { progress } from "../progress/store.js";
import { enable, runtimeProblem, showVerdict } from "./verdict.js";

const HINT_AFTER = 3; // failed checks before the hint is offered
const TIMEOUT_MS = 5_000;

function errorLine(error) {
  if (!error) return "";
  const where = error.line ? ` (line ${error.line}${error.column ? `, column ${error.column}` : ""})` : "";
  return `${error.type}${where}: ${error.message}`;
}

export function mount(el, runtime) {
  const id = el.dataset.question;
  const question = el.dataset.codeQuestion;
  const blank = el.querySelector("[data-blank]");
  const output = el.querySelector("[data-output]");
  const buttons = Object.fromEntries(
    [...el.querySelectorAll("[data-action]")].map((button) => [button.dataset.action, button]),
  );
  const hint = el.querySelector("[data-hint]");
  const confirm = el.querySelector("[data-confirm]");
  const reveal = el.querySelector("[data-reveal]");
  const saved = progress.get("questions", id) ?? {};
  let failures = Number.isInteger(saved.failures) ? saved.failures : 0;
  let attempts = Number.isInteger(saved.attempts) ? saved.attempts : 0;
  let running = null;
  let last = { verdict: saved.verdict ?? null, message: saved.message ?? "" };

  const fit = () => (blank.size = Math.max(24, blank.value.length + 2));
  const save = () =>
    progress.set("questions", id, {
      kind: "code", answer: blank.value, ...last, attempts, failures,
    });
  const onInput = () => {
    fit();
    save(); // the student's text survives a reload even before it is checked
  };
  const showOutput = (text) => {
    output.textContent = text;
    output.hidden = text === "";
  };
  const offerHint = () => (buttons.hint.hidden = failures < HINT_AFTER);

  async function send(name) {
    if (running) return null;
    buttons.run.disabled = buttons.check.disabled = true;
    buttons.stop.hidden = false;
    showVerdict(el, "pending", name === "code_run" ? "Running…" : "Checking…");
    running = runtime.call(name, { question, blank: blank.value }, { timeoutMs: TIMEOUT_MS });
    try {
      return await running;
    } catch (err) {
      showVerdict(el, "wrong", runtimeProblem(err));
      return null;
    } finally {
      running = null;
      buttons.run.disabled = buttons.check.disabled = false;
      buttons.stop.hidden = true;
    }
  }

  async function run() {
    const result = await send("code_run");
    if (!result) return;
    showOutput([result.stdout, errorLine(result.error)].filter(Boolean).join("\n"));
    showVerdict(el, "pending", result.verdict === "error" ? result.message : "Ran the example; its output is below.");
  }

  async function check() {
    const result = await send("code_check");
    if (!result) {
      failures += 1;
      attempts += 1;
      offerHint();
      return;
    }
    showOutput(result.stdout || "");
    attempts += 1;
    if (result.verdict !== "correct") failures += 1;
    showVerdict(el, result.verdict, result.message);
    offerHint();
    last = { verdict: result.verdict, message: result.message };
    save();
  }

  const stop = () => running && runtime.stop(running.id);
  const onKey = (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      check();
    }
  };
  const actions = {
    run,
    check,
    stop,
    hint: () => (hint.hidden = false),
    reveal: () => (confirm.hidden = false),
    "confirm-reveal": () => {
      confirm.hidden = true;
      reveal.hidden = false;
    },
    "cancel-reveal": () => (confirm.hidden = true),
  };
  const onClick = (event) => actions[event.currentTarget.dataset.action]?.();

  enable(el);
  buttons.stop.disabled = false;
  if (typeof saved.answer === "string") blank.value = saved.answer;
  if (["correct", "wrong", "error", "too_slow"].includes(saved.verdict)) {
    showVerdict(el, saved.verdict, typeof saved.message === "string" ? saved.message : "");
  }
  offerHint();
  fit();
  blank.addEventListener("input", onInput);
  blank.addEventListener("keydown", onKey);
  for (const button of Object.values(buttons)) button.addEventListener("click", onClick);
  return () => {
    blank.removeEventListener("input", onInput);
    blank.removeEventListener("keydown", onKey);
    for (const button of Object.values(buttons)) button.removeEventListener("click", onClick);
  };
}
