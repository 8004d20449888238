// The Python scratchpad: one panel per tab, opened by a button in the header (or Alt+P), that stays
// open across Material's instant navigation because it lives outside the page's content. It
// runs free-form code in the page's one Python worker (livelab.scratch: names kept between
// runs, the last line's value shown), with the same stop and time limit as a code question.
// Its text is kept per page in localStorage (scratchpad-store.js). A lab's "Open in
// scratchpad" button sends a `livelab:scratchpad` event with the lab's numbers as code.
// The editor is CodeMirror (editor/editor.js), loaded the first time the panel opens.

import { language, t } from "../i18n.js";
import { progress } from "../progress/store.js";
import { figureNotes, loadingText, showFigures } from "./figures.js";
import { keepPlace } from "./keep-place.js";
import { endedText, ranText, runningText } from "./run-words.js";
import { panelParts } from "./scratchpad-panel.js";
import { loadText, onOtherTab, saveText, TEXT_LIMIT } from "./scratchpad-store.js";

const SHORTCUT = "Alt+P";
const pageKey = () => progress.pageKey(); // the key saved progress files this page under
// Below this width (livelab.css) the panel is a full-screen sheet: modal, the page inert.
const SHEET = globalThis.matchMedia?.("(max-width: 29.99em)");

class Scratchpad {
  constructor(runtime) {
    this.runtime = runtime;
    this.editor = null;
    this.editorFor = null; // the page key whose text the editor shows
    this.opening = null; // the editor being created
    this.running = null; // the request of the run in progress
    this.runFor = null; // the page key whose text that run runs
    this.results = new Map(); // page key -> {output, status} of its last run
    this.savedText = null; // the editor's text as last saved or loaded: no edits of its own since
    this.lastRuns = 0; // runs the worker counted in its namespace at our last reply
    this.build();
  }

  build() {
    Object.assign(this, panelParts(SHORTCUT));
    this.toggle.addEventListener("click", () => (this.panel.hidden ? this.open() : this.hide()));
    this.close.addEventListener("click", () => this.hide());
    this.buttons.run.addEventListener("click", () => this.run());
    this.buttons.stop.addEventListener("click", () => this.stop());
    this.buttons.clear.addEventListener("click", () => this.clear());
    this.panel.addEventListener("keydown", (event) => {
      // Escape inside the editor belongs to CodeMirror (it frees Tab to leave the editor).
      if (event.key === "Escape" && !event.target.closest?.(".cm-editor")) this.hide();
    });
    // Capture, on the window: before Material's own keys see it.
    globalThis.addEventListener(
      "keydown",
      (event) => {
        if (!event.altKey || event.ctrlKey || event.metaKey || event.code !== "KeyP") return;
        event.preventDefault();
        event.stopPropagation();
        if (this.panel.hidden) this.open();
        else this.hide();
      },
      true,
    );
    document.addEventListener("livelab:scratchpad", (event) => this.insert(event.detail));
    SHEET?.addEventListener("change", () => this.setModal());
    onOtherTab(() => this.otherTab());
  }

  /** Open the panel with this page's text, and put the caret in the editor. */
  async open() {
    this.runtime.warm(); // its own Python, started when first opened
    this.panel.hidden = false;
    this.toggle.setAttribute("aria-expanded", "true");
    keepPlace(() => document.documentElement.classList.add("livelab-scratchpad-open"));
    this.setModal();
    const editor = await this.ensureEditor();
    if (editor && !this.panel.hidden) editor.focus();
    return editor;
  }

  hide() {
    this.panel.hidden = true;
    this.toggle.setAttribute("aria-expanded", "false");
    keepPlace(() => document.documentElement.classList.remove("livelab-scratchpad-open"));
    this.setModal();
    this.toggle.focus();
  }

  /**
   * As a full-screen sheet the panel is modal: the page behind it is inert, so Tab and a
   * screen reader stay in the panel. Docked, the page beside it stays usable.
   */
  setModal() {
    const modal = !this.panel.hidden && Boolean(SHEET?.matches);
    this.panel.setAttribute("aria-modal", String(modal));
    for (const child of document.body.children) {
      if (child !== this.region) child.inert = modal;
    }
  }

  /** The editor showing the current page's text: made anew for a new page (own undo history). */
  async ensureEditor() {
    const key = pageKey();
    if (this.editor && this.editorFor === key) return this.editor;
    if (this.opening) return this.opening.then(() => this.ensureEditor());
    this.editor?.destroy();
    this.editor = null;
    this.editorBox.replaceChildren();
    this.status.textContent = t("scratchpad.loading_editor");
    this.opening = import("../editor/editor.js")
      .then(({ createEditor }) =>
        createEditor(this.editorBox, {
          doc: loadText(key),
          label: t("editor.code_label"),
          onRun: () => this.run(),
          onChange: (text) => this.save(key, text),
        }),
      )
      .then(
        (editor) => {
          this.editor = editor;
          this.editorFor = key;
          this.savedText = editor.getText();
          this.showResult(key);
          return editor;
        },
        () => {
          this.status.textContent = t("scratchpad.editor_failed");
          return null;
        },
      )
      .finally(() => (this.opening = null));
    return this.opening;
  }

  save(key, text) {
    if (this.adopting) return;
    const saved = saveText(key, text);
    if (saved === "saved" && key === this.editorFor) this.savedText = text;
    const warnings = [t("scratchpad.unsaved"), t("scratchpad.cut", { limit: TEXT_LIMIT.toLocaleString(language) })];
    if (saved === "unsaved") {
      this.status.textContent = warnings[0];
    } else if (saved === "cut") {
      this.status.textContent = warnings[1];
    } else if (warnings.includes(this.status.textContent)) {
      this.status.textContent = ""; // saved in full again: the warning no longer holds
    }
  }

  /**
   * Another tab saved: this tab takes that page's text if it has no edits of its own since it
   * last saved or loaded; otherwise it keeps its text and says so (its next edit saves it).
   */
  otherTab() {
    if (!this.editor) return;
    const theirs = loadText(this.editorFor);
    const mine = this.editor.getText();
    if (theirs === mine) return;
    if (mine === this.savedText) {
      this.savedText = theirs;
      this.adopting = true; // already stored: saving it again would echo back to that tab
      try {
        this.editor.setText(theirs);
      } finally {
        this.adopting = false;
      }
    } else {
      this.status.textContent = t("scratchpad.other_tab");
    }
  }

  /** After an instant navigation: the open panel shows the new page's text. */
  pageChanged() {
    if (!this.panel.hidden) this.ensureEditor();
  }

  /** A lab's numbers as code: they replace the text (Ctrl+Z brings it back). */
  async insert({ code, title, anchor }) {
    const editor = await this.open();
    anchor?.scrollIntoView({ block: "nearest" }); // the lab stays in sight beside the panel
    if (!editor) return;
    editor.setText(code);
    editor.focus();
    this.status.textContent = title ? t("scratchpad.inserted_from", { title }) : t("scratchpad.inserted");
  }

  /** A page's own last output and status; a run from elsewhere is named, never shown here. */
  showResult(key) {
    const result = this.results.get(key) ?? { output: "", status: "" };
    this.showOutput(result.output, result.figures);
    this.status.textContent = result.status;
    if (this.running && this.runFor === key) this.status.textContent = t("scratchpad.running");
    else if (this.running) this.status.textContent = t("scratchpad.running_elsewhere");
  }

  /** Keep a run's result for its page; show it only if that page's text is the one shown. */
  report(key, output, status, figures = []) {
    this.results.set(key, { output, status, figures });
    if (this.editorFor === key) {
      this.showOutput(output, figures);
      this.status.textContent = status;
    } else {
      this.status.textContent = t("scratchpad.finished_elsewhere");
    }
  }

  setRunning(request) {
    this.running = request;
    this.buttons.run.disabled = this.buttons.clear.disabled = Boolean(request);
    this.buttons.stop.disabled = !request;
  }

  showOutput(text, figures = []) {
    this.output.textContent = text.replace(/\n$/, ""); // a last newline would show as a blank line
    this.output.hidden = text === "";
    showFigures(this.figures, figures);
  }

  async run() {
    if (this.running || !this.editor) return;
    const code = this.editor.getText();
    const key = this.editorFor;
    this.status.textContent = runningText(this.runtime.state);
    const onLoading = (names) => this.runFor === key && (this.status.textContent = loadingText(names));
    const request = this.runtime.call("scratch_run", { code }, { onLoading });
    this.runFor = key;
    this.setRunning(request);
    try {
      const reply = await request;
      const said = [ranText(reply)];
      // 1 run in a namespace we had used before: the worker was replaced meanwhile.
      if (reply.runs === 1 && this.lastRuns > 0) said.push(t("scratchpad.restarted"));
      if (reply.note) said.push(reply.note, t("scratchpad.names_gone"));
      this.lastRuns = reply.note ? 0 : reply.runs;
      said.push(...figureNotes(reply));
      this.report(key, reply.output, said.join(" "), reply.figures);
    } catch (err) {
      // The earlier run's output is not this run's, so it goes (run-words.js says why).
      this.report(key, "", endedText(err));
    } finally {
      this.setRunning(null);
    }
  }

  stop() {
    if (this.running) this.runtime.stop(this.running.id);
  }

  async clear() {
    this.results.delete(this.editorFor);
    this.showOutput("");
    this.status.textContent = "";
    if (this.running) return;
    const request = this.runtime.call("scratch_clear", {});
    this.setRunning(request);
    try {
      await request;
      this.lastRuns = 0;
      this.status.textContent = t("scratchpad.cleared");
    } catch (err) {
      this.status.textContent = err.message;
    } finally {
      this.setRunning(null);
    }
  }
}


let scratchpad = null;

/** Put the scratchpad on the page once per tab; call again after every page change. */
export function install(runtime) {
  scratchpad ??= new Scratchpad(runtime);
  scratchpad.pageChanged();
  return scratchpad;
}
