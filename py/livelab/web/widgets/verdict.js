// Verdict lines shared by the question widgets: always text, always in the live region.
// "Correct." or "Not yet." starts every verdict; the grader's message is a sentence of its
// own after it. Once the student changes the answer, the old verdict says it was about the
// previous answer until the next check.

const STALE_PREFIX = "About your previous answer: ";

export function showVerdict(el, verdict, message = "") {
  const line = el.querySelector("[data-verdict]");
  const opening = { correct: "Correct.", wrong: "Not yet.", error: "Not yet.", too_slow: "Not yet." };
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
  line.textContent = STALE_PREFIX + line.textContent;
}

export function enable(el) {
  for (const control of el.querySelectorAll("input, textarea, button")) control.disabled = false;
}

/** A message as a sentence: ends with a full stop unless it already ends a sentence. */
export const sentence = (message) => (/[.!?…]$/.test(message) ? message : `${message}.`);

/** The runtime's failure as a sentence for a verdict line. */
export function runtimeProblem(err) {
  if (err.type !== "RuntimeUnavailable") return err.message;
  // The runtime's own sentences usually say what to do already.
  return /retry/i.test(err.message) ? sentence(err.message) : `${sentence(err.message)} Press Retry to try again.`;
}

/** Python could not start: say why on the verdict line, with the same Retry the labs offer. */
export function showUnavailable(el, err, runtime) {
  showVerdict(el, "pending", runtimeProblem(err) + " ");
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "livelab-button";
  retry.textContent = "Retry";
  retry.addEventListener("click", () => {
    runtime.retry();
    showVerdict(el, "pending", "Starting Python again…");
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
