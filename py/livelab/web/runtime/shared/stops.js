// How a request that did not finish fails, and how a boot that did not finish fails: the
// error the page shows when a run was stopped, ran out of time or crashed Python, and the
// message when Python could not start. runtime/page/client.js raises them. Every sentence is
// in the site's language (../../i18n.js).

import { t } from "../../i18n.js";

export const STALL_MS = 20_000;
// Once the files are in, the boot is the browser's own work (compiling the interpreter,
// importing NumPy and the course). WebKit on a busy machine spends more than STALL_MS on one
// such phase without anything being wrong, so only a far longer silence counts as stuck there.
export const WORK_STALL_MS = 120_000;

export const WORKER_FAILED = t("runtime.worker_failed");

/**
 * What the page says when the server answered a file Python needs with an error status
 * (a RefusedFile, downloads.js): the file and the status, and who can fix it, since checking
 * the connection cannot.
 */
export function refusedMessage({ path, status }) {
  if (status === 404 || status === 410) return t("runtime.file_missing", { path, status });
  return t("runtime.file_refused", { path, status });
}

/** How long a boot may go without news in this phase, and what the page says after that. */
export function stall(phase) {
  if (phase === "download") {
    const message = t("runtime.download_stalled", { seconds: STALL_MS / 1000 });
    return { quietMs: STALL_MS, message };
  }
  const message = t("runtime.no_progress", { seconds: WORK_STALL_MS / 1000 });
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
  timeout: (timeoutMs) => t("runtime.stop_timeout", { seconds: timeoutMs / 1000 }),
  deep: (timeoutMs) => t("runtime.stop_deep", { seconds: timeoutMs / 1000 }),
  asleep: (timeoutMs) => t("runtime.stop_asleep", { seconds: timeoutMs / 1000 }),
  stopped: () => t("runtime.stop_user"),
  crashed: () => t("runtime.crashed"),
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
