// How a request that did not finish fails, and how a boot that did not finish fails: the
// error the page shows when a run was stopped, ran out of time or crashed Python, and the
// message when Python could not start. runtime/page/client.js raises them.

export const STALL_MS = 20_000;
// Once the files are in, the boot is the browser's own work (compiling the interpreter,
// importing NumPy and the course). WebKit on a busy machine spends more than STALL_MS on one
// such phase without anything being wrong, so only a far longer silence counts as stuck there.
export const WORK_STALL_MS = 120_000;

export const WORKER_FAILED =
  "Python could not start because its worker script did not load. " +
  "Check your connection, then press Retry.";

/**
 * What the page says when the server answered a file Python needs with an error status
 * (a RefusedFile, downloads.js): the file and the status, and who can fix it, since checking
 * the connection cannot.
 */
export function refusedMessage({ path, status }) {
  if (status === 404 || status === 410) {
    return (
      `Python could not start because the file ${path} is missing on the server ` +
      `(it answered ${status}). The site is incomplete: tell whoever runs it.`
    );
  }
  return (
    `Python could not start because the server answered ${status} for the file ${path}. ` +
    "Press Retry; if it fails again, tell whoever runs the site."
  );
}

/** How long a boot may go without news in this phase, and what the page says after that. */
export function stall(phase) {
  if (phase === "download") {
    const message =
      "Python could not start because its download stalled: nothing arrived for " +
      `${STALL_MS / 1000} s. Check your connection, then press Retry.`;
    return { quietMs: STALL_MS, message };
  }
  const message =
    `Python could not start: it made no progress for ${WORK_STALL_MS / 1000} s. ` +
    "Press Retry to start it again.";
  return { quietMs: WORK_STALL_MS, message };
}

export class RuntimeError extends Error {
  constructor(error) {
    super(error.note ? `${error.message} ${error.note}` : error.message);
    this.type = error.type;
    this.line = error.line ?? null;
    this.column = error.column ?? null;
    this.note = error.note ?? null;
  }
}

const STOP_MESSAGES = {
  timeout: (timeoutMs) =>
    `Stopped: the code ran longer than ${timeoutMs / 1000} s. Look for a loop that never ends.`,
  deep: (timeoutMs) =>
    `Stopped: the code ran longer than ${timeoutMs / 1000} s, deep in a recursion (a function ` +
    "that keeps calling itself). Make sure the calls stop.",
  asleep: (timeoutMs) =>
    `Stopped: the code ran longer than ${timeoutMs / 1000} s and was sleeping (time.sleep) ` +
    "when it was stopped. Sleep less, or not at all: nothing here needs a pause.",
  stopped: () => "Stopped: you stopped the run.",
  crashed: () => "Python crashed while running this and is restarting. Try again in a moment.",
};
const STOP_TYPES = {
  timeout: "Timeout",
  deep: "Timeout",
  asleep: "Timeout",
  stopped: "Stopped",
  crashed: "RuntimeCrashed",
};

export function stopError(reason, timeoutMs) {
  const message = STOP_MESSAGES[reason](timeoutMs);
  return { type: STOP_TYPES[reason], message, line: null, column: null };
}

/**
 * The error for a request that Python ended with KeyboardInterrupt, saying why it was stopped:
 * at the time limit, a stop deep in a recursion or in time.sleep says so (error.deep and
 * error.asleep come from livelab.worker_api.call).
 */
export function explainStop(request, error) {
  if (error.type !== "KeyboardInterrupt") return error;
  let reason = request.stopReason || "stopped";
  if (reason === "timeout" && error.deep) reason = "deep";
  else if (reason === "timeout" && error.asleep) reason = "asleep";
  return { ...stopError(reason, request.timeoutMs), note: error.note };
}
