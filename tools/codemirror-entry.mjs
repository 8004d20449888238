// The entry of the editor's CodeMirror bundle (py/livelab/web/editor/codemirror.bundle.js):
// exactly the names py/livelab/web/editor/editor.js uses, so esbuild leaves out the rest.
// Rebuild with `npm run bundle-editor` (tools/bundle-editor.mjs) after changing this file,
// editor.js's imports, or a CodeMirror version in package.json.
export { EditorState, Prec } from "@codemirror/state";
export { EditorView, keymap, lineNumbers } from "@codemirror/view";
export {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export { python } from "@codemirror/lang-python";
export { tags } from "@lezer/highlight";
