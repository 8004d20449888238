// A fill-in-the-blank code question. Run shows what the example prints, in the output area
// and the run status line; Check asks for the verdict (runtime/page/checks.js: the blank runs in a
// worker of its own, livelab.grading decides in the page's main worker), which a later Run
// leaves alone. Output is always text. Stop ends a running
// program; the runtime also stops it after its time limit. The hints and the reference
// answer stay sealed until earned and asked for (hints.js); a shown answer never counts as
// solved.

import { ANSWER_SHOWN, CUT_NOTE, QuestionRecord, SHOWN_NOTE } from "../progress/record.js";
import { codeRequest, prepareRunner, retryChecks } from "../runtime/page/checks.js";
import { answerEarned, hintLadder } from "./hints.js";
import { showMarkup, unseal } from "./sealed.js";
import { enable, markColumn, markStale, runtimeProblem, showUnavailable, showVerdict } from "./verdict.js";

const TIMEOUT_MS = 5_000;
const BUSY = Symbol("busy"); // nothing was graded: a check already runs, or Python is down
// Only a check that ran the student's code to a verdict is an attempt: one that ran out of
// time is (a verdict on the code); a stopped, voided or crashed one is not.
const VERDICT_ERRORS = new Set(["Timeout"]);
const NOT_COUNTED = " It does not count as an attempt.";

/** Enter keeps the line's indent, Tab indents by four spaces (unless Escape came just before:
 * then Tab leaves the field, so the keyboard is never trapped). True when the key was used. */
function editKey(area, event, leaving) {
  const type = (text) => {
    // insertText keeps the browser's undo history; setRangeText where it is not supported.
    if (!document.execCommand?.("insertText", false, text)) {
      area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
  };
  if (event.key === "Tab" && !event.shiftKey && !leaving && !event.ctrlKey && !event.altKey) {
    event.preventDefault();
    type("    ");
    return true;
  }
  if (event.key === "Enter" && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault();
    const start = area.value.lastIndexOf("\n", area.selectionStart - 1) + 1;
    type(`\n${area.value.slice(start).match(/^ */)[0]}`);
    return true;
  }
  return false;
}

function errorLine(error) {
  if (!error) return "";
  const where = error.line ? ` (line ${error.line}${error.column ? `, column ${error.column}` : ""})` : "";
  return `${error.type}${where}: ${error.message}`;
}

export function mount(el, runtime) {
  const record = new QuestionRecord(el.dataset.question, "code");
  const sealed = unseal(el);
  const question = el.dataset.codeQuestion;
  const blank = el.querySelector("[data-blank]");
  const output = el.querySelector("[data-output]");
  const runStatus = el.querySelector("[data-run-status]");
  const buttons = Object.fromEntries(
    [...el.querySelectorAll("[data-action]")].map((button) => [button.dataset.action, button]),
  );
  const confirm = el.querySelector("[data-confirm]");
  const reveal = el.querySelector("[data-reveal]");
  let running = null;
  let graded = null; // {answer, verdict} of the last check counted here: the same again is no new attempt

  const lines = blank.hasAttribute("data-lines"); // a text area: the blank spans several lines
  const minRows = lines ? blank.rows : 0;
  // A one-line blank is a text area of one line that wraps (issue 31): as wide as its text
  // (24 characters at least) where the line has room, and as tall as its wrapped text.
  const fit = () => {
    if (lines) {
      blank.rows = Math.max(minRows, blank.value.split("\n").length + 1);
      return;
    }
    blank.style.setProperty("--livelab-blank-chars", String(Math.max(24, blank.value.length + 2)));
    blank.style.blockSize = "auto";
    if (blank.scrollHeight > blank.clientHeight) {
      blank.style.blockSize = `${blank.scrollHeight + blank.offsetHeight - blank.clientHeight}px`;
    }
  };
  const oneLine = () => {
    // What a text input does with a pasted line break; the caret stays where it was.
    if (lines || !/[\r\n]/.test(blank.value)) return;
    const caret = blank.selectionEnd - (blank.value.slice(0, blank.selectionEnd).match(/\r\n/g)?.length ?? 0);
    blank.value = blank.value.replace(/\r\n|[\r\n]/g, " ");
    blank.setSelectionRange(caret, caret);
  };
  let fittedWidth = 0;
  const resized = new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width === fittedWidth) return;
    fittedWidth = width;
    fit();
  });
  const onInput = () => {
    oneLine();
    prepareRunner();
    fit();
    markStale(el);
    // The student's text survives a reload even before a check (cut, and said, if huge).
    if (record.draft(blank.value)) runStatus.textContent = CUT_NOTE;
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
  const waiting = (text) =>
    runtime.state === "starting" ? `${text} It runs as soon as Python has started (see the top of the page).` : text;
  const pointAt = (error) => error?.line === 1 && markColumn(blank, error.column);

  async function send(action, pending) {
    if (running) return BUSY;
    buttons.run.disabled = buttons.check.disabled = true;
    buttons.stop.hidden = false;
    pending();
    running = codeRequest(action, question, blank.value, { timeoutMs: TIMEOUT_MS, exercise: sealed.exercise });
    try {
      return await running;
    } catch (err) {
      if (err.type !== "RuntimeUnavailable") {
        const counts = VERDICT_ERRORS.has(err.type);
        const message = runtimeProblem(err) + (err.type === "Stopped" ? NOT_COUNTED : "");
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
    line.prepend("Not yet. ");
  }

  async function run() {
    const result = await send("run", () => (runStatus.textContent = waiting("Running the example…")));
    if (result === BUSY) return;
    showOutput([result.stdout, errorLine(result.error)].filter(Boolean).join("\n"));
    runStatus.textContent =
      result.verdict === "error" ? result.message : "Ran the example; its output is below.";
    if (result.note) runStatus.textContent += ` ${result.note}`; // Python restarted after this run
    pointAt(result.error);
  }

  async function check() {
    const answer = blank.value;
    const result = await send("check", () => showVerdict(el, "pending", waiting("Checking…")));
    if (result === BUSY) return; // Enter or Check again while a check runs: not an attempt
    showOutput(result.stdout || "");
    runStatus.textContent = "";
    // Checking the same answer again (Enter pressed fifty times) gives nothing new to count.
    const again = graded?.answer === answer && graded.verdict === result.verdict;
    if (result.counts !== false && !again) {
      graded = { answer, verdict: result.verdict };
      if (record.attempt(answer, result.verdict, result.message)) runStatus.textContent = CUT_NOTE;
    }
    if (result.note) runStatus.textContent = `${runStatus.textContent} ${result.note}`.trim();
    const solvedNote = result.verdict === "correct" && record.shown ? SHOWN_NOTE : result.message;
    showResult(result.verdict, solvedNote);
    pointAt(result.error);
    offerAnswer();
  }

  function showReference() {
    const code = document.createElement("code");
    code.textContent = sealed.reference;
    const pre = document.createElement("pre");
    pre.append(code);
    const title = document.createElement("p");
    title.textContent = "Reference answer:";
    reveal.replaceChildren(title, pre);
    reveal.hidden = false;
    buttons.reveal.hidden = true;
  }

  /** The template as a program that runs: imports, and the blank filled in (each further
   * line of a several-line blank at the blank's indent, as the grader puts it). */
  const program = () => {
    const filled = reveal.hidden ? blank.value : sealed.reference;
    const token = blank.dataset.blank; // livelab.questions' BLANK, as the markup carries it
    const before = el.dataset.program.slice(0, el.dataset.program.indexOf(token));
    const indent = before.slice(before.lastIndexOf("\n") + 1);
    const text = (filled || token).replaceAll("\n", `\n${indent}`);
    return el.dataset.program.replace(token, () => text);
  };
  // Material's copy button (it names its code block in data-clipboard-target) copies
  // data-clipboard-text when it carries one: set it just before Material's click handler,
  // on the document, reads it.
  const onCopy = (event) => {
    const copy = event.target.closest?.("[data-clipboard-target]");
    if (copy && el.contains(copy)) copy.dataset.clipboardText = program();
  };

  const stop = () => running?.stop();
  let leaving = false; // Escape was pressed: the next Tab leaves the text area
  const onKey = (event) => {
    if (lines) {
      const typed = editKey(blank, event, leaving);
      leaving = event.key === "Escape";
      if (typed) return;
    }
    if (event.key === "Enter" && (!lines || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!event.repeat) check(); // a held-down Enter is one check
    }
  };
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
    if (typeof saved.answer === "string" && document.activeElement !== blank) blank.value = saved.answer;
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
  fit();
  if (!lines) resized.observe(blank); // a new width wraps the line anew
  blank.addEventListener("input", onInput);
  blank.addEventListener("keydown", onKey);
  el.addEventListener("click", onCopy, true);
  const unfollow = record.follow(() => {
    restore();
    offerAnswer();
    fit();
  }, () => Boolean(running));
  for (const button of Object.values(buttons)) button.addEventListener("click", onClick);
  return () => {
    resized.disconnect();
    blank.removeEventListener("input", onInput);
    blank.removeEventListener("keydown", onKey);
    el.removeEventListener("click", onCopy, true);
    unfollow();
    ladder.unmount();
    for (const button of Object.values(buttons)) button.removeEventListener("click", onClick);
  };
}
