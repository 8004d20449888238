// How a request that did not finish fails: the error the page shows when a run was stopped,
// ran out of time or crashed Python. runtime/client.js raises them.

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
  stopped: () => "Stopped: you stopped the run.",
  crashed: () => "Python crashed while running this and is restarting. Try again in a moment.",
};
const STOP_TYPES = {
  timeout: "Timeout",
  deep: "Timeout",
  stopped: "Stopped",
  crashed: "RuntimeCrashed",
};

export function stopError(reason, timeoutMs) {
  const message = STOP_MESSAGES[reason](timeoutMs);
  return { type: STOP_TYPES[reason], message, line: null, column: null };
}
