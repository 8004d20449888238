// A code question's Run and Check, across two workers. The page's main worker plans (which
// cases, the template: never the reference) and grades; a runner, a worker of its own booted
// without the course and ended after its one reply (client.js `runner`), runs the student's
// blank and describes what it did. So a verdict is never decided by an interpreter that
// student code has touched, and nothing a blank does reaches a later check
// (livelab.grading says what each half does).

import { RuntimeError, runner, runtime } from "./client.js";
import { stopError } from "../shared/stops.js";

const plans = new Map(); // "action question" -> the main worker's plan (the same all visit)

function planFor(action, question, exercise) {
  const key = `${action} ${question}`;
  if (!plans.has(key)) {
    const asked = runtime.call("code_plan", { question, action, ...exercise });
    asked.catch(() => plans.delete(key)); // asked again next time
    plans.set(key, asked);
  }
  return plans.get(key);
}

/**
 * Run ("run") or check ("check") a blank (its text, or for a template of several blanks a
 * list of each blank's text, in order); resolves with the result livelab.grading gives,
 * rejects with a RuntimeError. The promise's stop() stops it, wherever it is.
 */
export function codeRequest(action, question, blank, { timeoutMs, exercise }) {
  // An exercise's question is made from its data, sent with each call to the main worker
  // (a restarted worker defines it again).
  const made = exercise ? { exercise } : {};
  runner.warm(); // its boot overlaps the plan
  let running = null;
  let stopEarly;
  // A stop before the blank reaches its runner (the main worker may still be starting) ends
  // the request at once.
  const stopped = new Promise((_, reject) => (stopEarly = reject));
  stopped.catch(() => {});
  const promise = (async () => {
    const plan = await Promise.race([planFor(action, question, made), stopped]);
    // A runner that failed while the main worker could not start either (no connection) is
    // tried again now that the main worker answered; a lasting fault fails again, and says so.
    if (runner.state === "failed") runner.retry();
    running = runner.call("code_execute", { plan, blank }, { timeoutMs });
    const raw = await running;
    running = null;
    return runtime.call(action === "check" ? "code_grade" : "code_finish", { question, raw, ...made });
  })();
  promise.stop = () => {
    if (running) runner.stop(running.id);
    else stopEarly(new RuntimeError(stopError("stopped", timeoutMs)));
  };
  return promise;
}

/** Start a runner now (a student is typing an answer), so the next check finds it ready. */
export const prepareRunner = () => runner.warm();

/** Retry both workers a check needs (after either could not start). */
export const retryChecks = {
  retry() {
    runtime.retry();
    runner.retry();
  },
};
