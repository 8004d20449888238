// A fill-in-the-blank code question. Run shows what the example prints, in the output area
// and the run status line; Check asks for the verdict (runtime/page/checks.js: the blank runs in a
// worker of its own, livelab.grading decides in the page's main worker), which a later Run
// leaves alone. Output is always text. Stop ends a running
// program; the runtime also stops it after its time limit. The hints and the reference
// answer stay sealed until earned and asked for (hints.js); a shown answer never counts as
// solved.

import { ANSWER_SHOWN, CUT_NOTE, QuestionRecord, SHOWN_NOTE } from "../progress/record.js";
import { ANSWER_LIMIT } from "../progress/schema.js";
import { codeRequest, prepareRunner, retryChecks } from "../runtime/page/checks.js";
import { t } from "../i18n.js";
import { blankField, fillProgram, packAnswer, unpackAnswer } from "./blanks.js";
import { answerEarned, hintLadder } from "./hints.js";
import { showMarkup, unseal } from "./sealed.js";
import { enable, markColumn, markStale, runtimeProblem, showUnavailable, showVerdict } from "./verdict.js";

const TIMEOUT_MS = 5_000;
const BUSY = Symbol("busy"); // nothing was graded: a check already runs, or Python is down
// Only a check that ran the student's code to a verdict is an attempt: one that ran out of
// time is (a verdict on the code); a stopped, voided or crashed one is not.
const VERDICT_ERRORS = new Set(["Timeout"]);

/** The error under the output, located in its blank (named when the template has several). */
function errorLine(error, count) {
  if (!error) return "";
  const { type, message, line, column, blank } = error;
  if (!line) return t("code.error_plain", { type, message });
  if (blank && count > 1) {
    if (column) return t("code.error_at_blank_line_column", { type, message, blank, line, column });
    return t("code.error_at_blank_line", { type, message, blank, line });
  }
  if (column) return t("code.error_at_line_column", { type, message, line, column });
  return t("code.error_at_line", { type, message, line });
}

export function mount(el, runtime) {
  const record = new QuestionRecord(el.dataset.question, "code");
  const sealed = unseal(el);
  const question = el.dataset.codeQuestion;
  const fields = [...el.querySelectorAll("[data-blank]")]; // one per blank, in order
  const count = fields.length;
  const output = el.querySelector("[data-output]");
  const runStatus = el.querySelector("[data-run-status]");
  const buttons = Object.fromEntries(
    [...el.querySelectorAll("[data-action]")].map((button) => [button.dataset.action, button]),
  );
  const confirm = el.querySelector("[data-confirm]");
  const reveal = el.querySelector("[data-reveal]");
  let running = null;
  let graded = null; // {answer, verdict} of the last check counted here: the same again is no new attempt

  // What is sent: the blank's text, or a list of each blank's; what is saved: one text.
  const texts = () => fields.map((field) => field.value);
  const sent = () => (count === 1 ? fields[0].value : texts());
  const saving = () => packAnswer(texts(), ANSWER_LIMIT);
  const onInput = () => {
    prepareRunner();
    markStale(el);
    // The student's text survives a reload even before a check (cut, and said, if huge).
    const { text, cut } = saving();
    if (record.draft(text) || cut) runStatus.textContent = CUT_NOTE;
  };
  const showOutput = (text) => {
    output.textContent = text;
    output.hidden = text === "";
  };
  const hints = sealed.hints ?? [];
  // Once solved, the reference may be shown to compare (it gives nothing away any more);
  // hints are over once the question is solved or the reference is on screen.
  const offerAnswer = () => {
    const solved = record.state === "correct";
    buttons.reveal.hidden = !reveal.hidden || !(solved || answerEarned(record, hints.length));
    ladder.update(solved || !reveal.hidden);
  };
  const ladder = hintLadder(el, record, hints, offerAnswer);
  // Before Python is live, say that the request waits for it (the page's loading line says how far).
  const waiting = (text) => (runtime.state === "starting" ? `${text} ${t("code.waits_for_python")}` : text);
  // A syntax error or a traceback on a blank's first line: its column, in that blank's field.
  const pointAt = (error) => error?.line === 1 && markColumn(fields[(error.blank ?? 1) - 1] ?? fields[0], error.column);

  async function send(action, pending) {
    if (running) return BUSY;
    buttons.run.disabled = buttons.check.disabled = true;
    buttons.stop.hidden = false;
    pending();
    running = codeRequest(action, question, sent(), { timeoutMs: TIMEOUT_MS, exercise: sealed.exercise });
    try {
      return await running;
    } catch (err) {
      if (err.type !== "RuntimeUnavailable") {
        const counts = VERDICT_ERRORS.has(err.type);
        const problem = runtimeProblem(err);
        const message = err.type === "Stopped" ? `${problem} ${t("code.not_counted")}` : problem;
        return { verdict: "error", message, stdout: "", error: null, counts };
      }
      showUnavailable(el, err, retryChecks); // not an attempt: nothing ran
      return BUSY;
    } finally {
      running = null;
      buttons.run.disabled = buttons.check.disabled = false;
      buttons.stop.hidden = true;
    }
  }

  // An exercise's feedback on a known wrong answer is the author's Markdown, rendered at build
  // time (math too): shown as that markup when the grader's message is that feedback's text.
  const feedback = new Map(sealed.feedback ?? []);
  function showResult(verdict, message) {
    const markup = verdict === "wrong" ? feedback.get(message) : undefined;
    if (markup === undefined) return showVerdict(el, verdict, message);
    const line = el.querySelector("[data-verdict]");
    showVerdict(el, verdict);
    showMarkup(line, markup); // puts the markup in at once, then typesets
    line.prepend(`${t("code.not_yet")} `);
  }

  async function run() {
    const result = await send("run", () => (runStatus.textContent = waiting(t("code.running"))));
    if (result === BUSY) return;
    showOutput([result.stdout, errorLine(result.error, count)].filter(Boolean).join("\n"));
    runStatus.textContent = result.verdict === "error" ? result.message : t("code.ran");
    if (result.note) runStatus.textContent += ` ${result.note}`; // Python restarted after this run
    pointAt(result.error);
  }

  async function check() {
    const { text: answer, cut } = saving();
    const result = await send("check", () => showVerdict(el, "pending", waiting(t("code.checking"))));
    if (result === BUSY) return; // Enter or Check again while a check runs: not an attempt
    showOutput(result.stdout || "");
    runStatus.textContent = "";
    // Checking the same answer again (Enter pressed fifty times) gives nothing new to count.
    const again = graded?.answer === answer && graded.verdict === result.verdict;
    if (result.counts !== false && !again) {
      graded = { answer, verdict: result.verdict };
      if (record.attempt(answer, result.verdict, result.message) || cut) runStatus.textContent = CUT_NOTE;
    }
    if (result.note) runStatus.textContent = `${runStatus.textContent} ${result.note}`.trim();
    const solvedNote = result.verdict === "correct" && record.shown ? SHOWN_NOTE : result.message;
    showResult(result.verdict, solvedNote);
    pointAt(result.error);
    offerAnswer();
  }

  // The reference: one text, or a list of each blank's.
  const references = () => (count === 1 ? [sealed.reference] : sealed.reference);
  function showReference() {
    const shown = [document.createElement("p")];
    shown[0].textContent = t("code.reference_title");
    references().forEach((text, index) => {
      if (count > 1) {
        const which = document.createElement("p");
        which.textContent = t("code.reference_of", { number: index + 1, total: count });
        shown.push(which);
      }
      const code = document.createElement("code");
      code.textContent = text;
      const pre = document.createElement("pre");
      pre.append(code);
      shown.push(pre);
    });
    reveal.replaceChildren(...shown);
    reveal.hidden = false;
    buttons.reveal.hidden = true;
  }

  /** The template as a program that runs: imports, and every blank filled in. */
  const program = () =>
    fillProgram(el.dataset.program, fields[0].dataset.blank, reveal.hidden ? texts() : references());
  // Material's copy button (it names its code block in data-clipboard-target) copies
  // data-clipboard-text when it carries one: set it just before Material's click handler,
  // on the document, reads it.
  const onCopy = (event) => {
    const copy = event.target.closest?.("[data-clipboard-target]");
    if (copy && el.contains(copy)) copy.dataset.clipboardText = program();
  };

  const stop = () => running?.stop();
  const actions = {
    run,
    check,
    stop,
    reveal: () => (confirm.hidden = false),
    "confirm-reveal": () => {
      confirm.hidden = true;
      record.reveal();
      showReference();
      if (record.shown) showVerdict(el, "shown", ANSWER_SHOWN);
      offerAnswer();
    },
    "cancel-reveal": () => (confirm.hidden = true),
  };
  const onClick = (event) => actions[event.currentTarget.dataset.action]?.();

  /** Shows what is saved: at mount, and when another tab saved this question. */
  function restore() {
    const saved = record.entry;
    if (typeof saved.answer === "string") {
      const each = unpackAnswer(saved.answer, count);
      fields.forEach((field, index) => {
        if (document.activeElement !== field) field.value = each[index];
      });
    }
    if (record.shown && saved.verdict !== "correct") {
      showVerdict(el, "shown", ANSWER_SHOWN);
    } else if (["correct", "wrong", "error", "too_slow"].includes(saved.verdict) && record.attempts > 0) {
      const message = typeof saved.message === "string" ? saved.message : "";
      showResult(saved.verdict, saved.verdict === "correct" && record.shown ? SHOWN_NOTE : message);
    }
    if (record.shown) showReference();
  }

  enable(el);
  buttons.stop.disabled = false;
  restore();
  offerAnswer();
  const blanks = fields.map((field) => blankField(field, { onInput, check }));
  el.addEventListener("click", onCopy, true);
  const unfollow = record.follow(() => {
    restore();
    offerAnswer();
    for (const blank of blanks) blank.fit();
  }, () => Boolean(running));
  for (const button of Object.values(buttons)) button.addEventListener("click", onClick);
  return () => {
    for (const blank of blanks) blank.unmount();
    el.removeEventListener("click", onCopy, true);
    unfollow();
    ladder.unmount();
    for (const button of Object.values(buttons)) button.removeEventListener("click", onClick);
  };
}
