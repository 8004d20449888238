// A runnable code block (livelab.builder.runnable): the author's code, which the student edits
// in the scratchpad's CodeMirror (its bundle loaded once, when a block first nears the window;
// until then the code is plain text and Run runs it as shown) and runs with Run or
// Ctrl/Cmd+Enter in the scratch Python. The blocks of a page share one namespace, in the
// order the student runs them ("blocks:<page>" in livelab.scratch), apart from the
// scratchpad's names and from every grader. Stop ends a run; Reset brings back the author's
// code. Output is text under the block: what the code printed, the last line's value as its
// repr, an error's traceback; then the figures it drew with matplotlib (figures.js). Edits
// are kept per page and block (scratchpad-store.js), so a reload loses nothing; leaving the
// page stops a run still going.

import { t } from "../i18n.js";
import { progress } from "../progress/store.js";
import { scratchRuntime } from "../runtime/page/client.js";
import { figureNotes, loadingText, showFigures } from "./figures.js";
import { whenEachNear } from "./near-view.js";
import { endedText, ranText, runningText } from "./run-words.js";
import { loadText, saveText } from "./scratchpad-store.js";
import { enable } from "./verdict.js";

export function mount(el) {
  const page = progress.pageKey();
  const key = `${page}#${el.id}`; // this block's edits in the scratchpad store
  const number = el.id.replace(/^run-/, "");
  const pre = el.querySelector("[data-code]");
  const original = pre.textContent;
  const status = el.querySelector("[data-status]");
  const output = el.querySelector("[data-output]");
  const buttons = {
    run: el.querySelector('[data-action="run"]'),
    stop: el.querySelector('[data-action="stop"]'),
    reset: el.querySelector('[data-action="reset"]'),
  };
  let editor = null;
  let opening = null;
  let running = null;
  let mounted = true;

  const saved = loadText(key);
  if (saved) pre.textContent = saved;
  const text = () => (editor ? editor.getText() : pre.textContent);
  const figures = el.querySelector("[data-figures]");
  const show = (out, drawn = []) => {
    output.textContent = out.replace(/\n$/, ""); // a last newline would show as a blank line
    output.hidden = out === "";
    showFigures(figures, drawn);
  };
  const setRunning = (request) => {
    running = request;
    buttons.run.disabled = buttons.reset.disabled = Boolean(request);
    buttons.stop.disabled = !request;
  };

  /** The editor in place of the code, with the text as it is now; made once. */
  function edit() {
    opening ??= import("../editor/editor.js")
      .then(({ createEditor }) => {
        if (!mounted) return null;
        const box = document.createElement("div");
        box.className = "livelab-runnable__editor";
        pre.replaceWith(box);
        return createEditor(box, {
          doc: pre.textContent,
          label: t("runnable.code_label", { number }),
          onRun: () => run(),
          onChange: (value) => saveText(key, value === original ? "" : value),
        });
      })
      .then((made) => {
        editor = made;
        return editor;
      })
      .catch(() => {
        opening = null;
        status.textContent = t("runnable.editor_failed");
      });
    return opening;
  }

  async function run() {
    if (running) return;
    status.textContent = runningText(scratchRuntime.state);
    const onLoading = (names) => mounted && (status.textContent = loadingText(names));
    const args = { code: text(), space: `blocks:${page}` };
    const request = scratchRuntime.call("scratch_run", args, { onLoading });
    setRunning(request);
    try {
      const reply = await request;
      const said = [ranText(reply)];
      if (reply.note) said.push(reply.note, t("runnable.names_gone"));
      said.push(...figureNotes(reply));
      if (mounted) {
        show(reply.output, reply.figures);
        status.textContent = said.join(" ");
      }
    } catch (err) {
      if (mounted) {
        show("");
        status.textContent = endedText(err);
      }
    } finally {
      setRunning(null);
    }
  }

  const onReset = () => {
    if (editor) editor.setText(original);
    else pre.textContent = original;
    saveText(key, "");
    show("");
    status.textContent = t("runnable.reset_done");
  };
  const onStop = () => running && scratchRuntime.stop(running.id);
  // The scratch Python starts when the student first goes into a block's code, not for a
  // page they only read.
  const onFocus = () => scratchRuntime.warm();

  enable(el);
  buttons.stop.disabled = true;
  buttons.run.addEventListener("click", run);
  buttons.stop.addEventListener("click", onStop);
  buttons.reset.addEventListener("click", onReset);
  el.addEventListener("focusin", onFocus, { once: true });
  const [cancel] = whenEachNear([el], () => edit());
  return () => {
    mounted = false;
    cancel();
    onStop();
    editor?.destroy();
    buttons.run.removeEventListener("click", run);
    buttons.stop.removeEventListener("click", onStop);
    buttons.reset.removeEventListener("click", onReset);
    el.removeEventListener("focusin", onFocus);
  };
}
