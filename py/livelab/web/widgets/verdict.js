// Verdict lines shared by the question widgets: always text, always in the live region.
// "Correct." or "Not yet." starts every verdict; the grader's message is a sentence of its
// own after it. Once the student changes the answer, the old verdict says it was about the
// previous answer until the next check.

import { t } from "../i18n.js";

export function showVerdict(el, verdict, message = "") {
  const line = el.querySelector("[data-verdict]");
  const notYet = t("verdict.not_yet");
  const opening = { correct: t("verdict.correct"), wrong: notYet, error: notYet, too_slow: notYet };
  line.textContent = opening[verdict] ? [opening[verdict], message].filter(Boolean).join(" ") : message;
  line.dataset.state = verdict;
  delete line.dataset.stale;
}

/** After an edit: the verdict on screen belongs to the answer before it. */
export function markStale(el) {
  const line = el.querySelector("[data-verdict]");
  const graded = ["correct", "wrong", "error", "too_slow"].includes(line.dataset.state);
  if (!graded || "stale" in line.dataset || line.textContent === "") return;
  line.dataset.stale = "";
  line.textContent = t("verdict.stale", { verdict: line.textContent });
}

export function enable(el) {
  for (const control of el.querySelectorAll("input, textarea, button")) control.disabled = false;
}

/** A message as a sentence: ends with a full stop unless it already ends a sentence. */
export const sentence = (message) => (/[.!?…]$/.test(message) ? message : `${message}.`);

/** The runtime's failure as a sentence for a verdict line. */
export function runtimeProblem(err) {
  if (err.type !== "RuntimeUnavailable") return err.message;
  // The runtime's own sentences usually say what to do already (Retry, in the site's words).
  const saysRetry = /retry|r[ée]essay/i.test(err.message) || err.message.includes(t("status.retry"));
  return saysRetry ? sentence(err.message) : t("verdict.press_retry", { problem: sentence(err.message) });
}

/** Python could not start: say why on the verdict line, with the same Retry the labs offer. */
export function showUnavailable(el, err, runtime) {
  showVerdict(el, "pending", runtimeProblem(err) + " ");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "livelab-button";
  retry.textContent = t("status.retry");
  retry.addEventListener("click", () => {
    runtime.retry();
    showVerdict(el, "pending", t("verdict.restarting"));
  });
  el.querySelector("[data-verdict]").append(retry);
}

/** Select a character of a text field: where the grader or the parser stopped reading. */
export function markColumn(field, column) {
  if (!Number.isInteger(column) || column < 1) return;
  const start = Math.min(column - 1, field.value.length);
  field.focus();
  field.setSelectionRange(start, Math.min(start + 1, field.value.length));
}
