// A lab that runs (its markup has data-lab-runs; livelab.labs.runs in Python): Run starts a
// computation in the page's Python worker and the lab draws it as it goes; Stop ends it.
//
// Each chunk of a run is an ordinary request (lab_run_start, then lab_run_next until done), so
// the worker answers the page's other labs between two chunks: the rest of the page stays
// live while a run goes on. What the student chose, and why:
//   - the first view is the build's run to its end, marked as such until the student runs it;
//   - Run takes the settings as they are; a change of settings during a run is for the next
//     run (the line below the buttons says so), never mixed into this one;
//   - Run during a run starts over; Stop ends it at once and keeps what was drawn;
//   - scrolling away does not stop a run (the student started it); leaving the page does.
// The line below the buttons ([data-run-status], a live region) says what happens, in words:
// it is not updated at every chunk, only when a run starts, stops or ends.

import { t } from "../i18n.js";

const CHUNK_MS = 150; // a chunk's time budget in the worker: at least 5 updates a second

export function bindRun(el, runtime, { readParams, applyView, status }) {
  const kind = el.dataset.labKind;
  const runButton = el.querySelector("button[data-run]");
  const stopButton = el.querySelector("button[data-stop]");
  const line = el.querySelector("[data-run-status]");
  let current = null; // {id, stopped} of the run this lab is drawing
  let mounted = true;

  const say = (text) => {
    if (line.textContent !== text) line.textContent = text;
  };
  const settled = (run) => {
    if (current === run) current = null;
    stopButton.disabled = current === null;
  };

  async function go() {
    const previous = current;
    if (previous) stop(previous, "");
    const run = { id: null, stopped: false };
    current = run;
    stopButton.disabled = false;
    say(t("lab.running"));
    try {
      let reply = await runtime.call("lab_run_start", { kind, params: readParams(el), budget_ms: CHUNK_MS });
      run.id = reply.run;
      while (mounted && !run.stopped) {
        if (reply.view) applyView(reply.view);
        if (reply.done) {
          say(t("lab.finished", { progress: reply.view?.text?.progress ?? t("lab.whole_run") }));
          break;
        }
        reply = await runtime.call("lab_run_next", { run: run.id, budget_ms: CHUNK_MS });
      }
      if (run.stopped && run.id !== null) runtime.call("lab_run_stop", { run: run.id }).catch(() => {});
    } catch (err) {
      if (!run.stopped && mounted) {
        if (err.type === "ValueError") say(err.message);
        else if (err.type !== "RuntimeUnavailable") status.error(t("lab.run_failed", { message: err.message }));
      }
    } finally {
      settled(run);
    }
  }

  function stop(run, text) {
    run.stopped = true;
    if (run.id !== null) runtime.call("lab_run_stop", { run: run.id }).catch(() => {});
    if (text) say(text);
    settled(run);
  }

  const onRun = () => go();
  const onStop = () => {
    if (!current) return;
    const shown = el.querySelector('[data-text="progress"]')?.textContent;
    stop(current, shown ? t("lab.stopped_after", { progress: shown }) : t("lab.stopped"));
  };
  const onInput = (event) => {
    if (current && event.target.matches("[data-param]")) {
      say(t("lab.settings_for_next_run"));
    }
  };
  runButton.disabled = false;
  runButton.addEventListener("click", onRun);
  stopButton.addEventListener("click", onStop);
  el.addEventListener("input", onInput);
  return () => {
    mounted = false;
    if (current) stop(current, "");
    runButton.removeEventListener("click", onRun);
    stopButton.removeEventListener("click", onStop);
    el.removeEventListener("input", onInput);
  };
}
