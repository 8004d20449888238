// Verdict lines shared by the question widgets: always text, always in the live region.

export function showVerdict(el, verdict, message) {
  const line = el.querySelector("[data-verdict]");
  const text =
    verdict === "correct"
      ? `Correct. ${message.replace(/^Correct[.:!]?\s*/, "")}`
      : verdict === "unreadable" || verdict === "pending"
        ? message
        : `Not yet: ${message}`;
  line.textContent = text;
  line.dataset.state = verdict;
}

export function enable(el) {
  for (const control of el.querySelectorAll("input, button")) control.disabled = false;
}

/** The runtime's failure as a sentence for a verdict line. */
export function runtimeProblem(err) {
  if (err.type === "RuntimeUnavailable") {
    return `${err.message}. Reload the page to try again.`;
  }
  return err.message;
}
