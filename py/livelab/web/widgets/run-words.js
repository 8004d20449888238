// What a run in the scratch Python says on its status line, in the site's language: the same
// sentences for the scratchpad (scratchpad.js) and the runnable blocks (runnable.js).

import { t } from "../i18n.js";

/** The status from Run until the reply: waiting for Python to start, or running. */
export const runningText = (state) => (state === "starting" ? t("scratchpad.running_soon") : t("scratchpad.running"));

/** The first sentence of a finished run's status: done, or the error's type and its line. */
export function ranText(reply) {
  if (!reply.error) return t("scratchpad.done");
  const { type, line } = reply.error;
  return line ? t("scratchpad.error_on_line", { error: type, line }) : t("scratchpad.error", { error: type });
}

/**
 * A run that brought no reply (a stop, a time limit, Python that cannot start): the runtime's
 * message says which, in full; a stopped run's prints never come back, and this says so.
 */
export function endedText(err) {
  const stopped = ["Stopped", "Timeout"].includes(err.type) || err.message.startsWith("Stopped");
  return stopped ? `${err.message} ${t("scratchpad.output_lost")}` : err.message;
}
