// The code editor of the Python scratchpad: CodeMirror 6 as one minified ES module beside this
// file (codemirror.bundle.js, built by esbuild from the packages package-lock.json pins: `npm
// run bundle-editor`, tools/bundle-editor.mjs; its licences in codemirror.bundle.licenses.txt).
// Nothing is downloaded until the first createEditor call, so a page that never opens the
// scratchpad costs no extra bytes. Python mode, line numbers, bracket matching, undo and redo,
// Tab and Shift-Tab indent and dedent the lines (Escape, then Tab, leaves the editor, as in
// every CodeMirror), Ctrl-Enter or Cmd-Enter runs. The colours follow Material's palette: the
// light theme on the default scheme, the dark one on `slate`; every text colour has a
// contrast of at least 4.5:1 on its background (WCAG AA).

let bundle = null;

// One download per page, shared by every editor; a failed one (offline, say) is tried again.
// The bundle exports exactly the names used here (tools/codemirror-entry.mjs).
function load() {
  bundle ??= import("./codemirror.bundle.js").catch((error) => {
    bundle = null;
    throw error;
  });
  return bundle;
}

// Text colours of each scheme: contrast >= 4.5:1 on the code background (#f5f5f5 and
// #ffffff light; Material's slate code and page backgrounds, about #272a35 and #1e2129, dark).
const LIGHT = {
  "--livelab-cm-fg": "#36464e",
  "--livelab-cm-gutter": "#5f6368",
  "--livelab-cm-keyword": "#7b1fa2",
  "--livelab-cm-string": "#1b6b3a",
  "--livelab-cm-number": "#b3261e",
  "--livelab-cm-comment": "#5f6368",
  "--livelab-cm-function": "#1a56b0",
  "--livelab-cm-class": "#00695c",
  "--livelab-cm-bracket": "#dce7f7",
  "--livelab-cm-border": "#c4c8cc",
};
const DARK = {
  "--livelab-cm-fg": "#dfe3ea",
  "--livelab-cm-gutter": "#a6adbb",
  "--livelab-cm-keyword": "#d6a8ff",
  "--livelab-cm-string": "#8fd9a8",
  "--livelab-cm-number": "#ffab91",
  "--livelab-cm-comment": "#a6adbb",
  "--livelab-cm-function": "#8ab4f8",
  "--livelab-cm-class": "#80cbc4",
  "--livelab-cm-bracket": "#2f3d5c",
  "--livelab-cm-border": "#5a6070",
};

function theme(cm) {
  const { EditorView, HighlightStyle, syntaxHighlighting, tags } = cm;
  const look = EditorView.theme({
    "&": {
      ...LIGHT,
      color: "var(--livelab-cm-fg)",
      backgroundColor: "var(--md-code-bg-color, #f5f5f5)",
      border: "1px solid var(--livelab-cm-border)",
      borderRadius: "0.1rem",
    },
    '[data-md-color-scheme="slate"] &': DARK,
    "&.cm-focused": { outline: "2px solid var(--livelab-cm-fg)", outlineOffset: "1px" },
    ".cm-scroller": {
      fontFamily: 'var(--md-code-font-family, ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace)',
      fontSize: "0.75rem",
      lineHeight: "1.5",
    },
    // A touch screen zooms into a text field whose font is under 16 px (iOS), and back out
    // only when the student pinches; 16 px or more keeps the page as it is.
    "@media (pointer: coarse)": { ".cm-scroller": { fontSize: "max(16px, 0.8rem)" } },
    ".cm-content": { caretColor: "var(--livelab-cm-fg)", padding: "0.4em 0" },
    ".cm-gutters": {
      color: "var(--livelab-cm-gutter)",
      backgroundColor: "transparent",
      borderRight: "1px solid var(--livelab-cm-border)",
    },
    "&.cm-focused .cm-matchingBracket": {
      backgroundColor: "var(--livelab-cm-bracket)",
      outline: "1px solid var(--livelab-cm-gutter)",
    },
    "&.cm-focused .cm-nonmatchingBracket": { color: "var(--livelab-cm-number)", textDecoration: "underline wavy" },
  });
  const colours = HighlightStyle.define([
    { tag: [tags.keyword, tags.self], color: "var(--livelab-cm-keyword)" },
    { tag: [tags.string, tags.special(tags.string)], color: "var(--livelab-cm-string)" },
    { tag: [tags.number, tags.bool, tags.null, tags.escape], color: "var(--livelab-cm-number)" },
    { tag: tags.comment, color: "var(--livelab-cm-comment)", fontStyle: "italic" },
    { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--livelab-cm-function)" },
    { tag: [tags.className, tags.definition(tags.className)], color: "var(--livelab-cm-class)" },
    { tag: tags.invalid, textDecoration: "underline wavy" },
  ]);
  return [look, syntaxHighlighting(colours)];
}

/**
 * Mount a Python editor in parent and resolve to its handle once CodeMirror has loaded.
 * onRun(text) is called on Ctrl-Enter or Cmd-Enter; onChange(text) on every change of the
 * text, setText included. label is the editable element's accessible name, in the site's
 * language (the caller's; this module imports nothing but the bundle). An editor without a
 * name would be a field a screen reader cannot announce, so a missing label is refused.
 */
export async function createEditor(parent, { doc = "", label, onRun, onChange } = {}) {
  if (typeof label !== "string" || !label.trim()) {
    throw new TypeError("livelab editor: createEditor needs a label, the field's accessible name");
  }
  const cm = await load();
  const { EditorState, Prec, EditorView, keymap, lineNumbers } = cm;
  const { bracketMatching, indentOnInput, indentUnit } = cm;
  const { defaultKeymap, history, historyKeymap, indentWithTab, python } = cm;
  const run = (target) => {
    onRun?.(target.state.doc.toString());
    return true;
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        python(),
        theme(cm),
        // Above the default keymap, whose Mod-Enter inserts a blank line.
        Prec.highest(keymap.of([
          { key: "Ctrl-Enter", run },
          { key: "Meta-Enter", run },
        ])),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
