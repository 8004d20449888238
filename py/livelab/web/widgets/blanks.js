// The text fields of a code question's blanks (widgets/code.js): one per blank of its
// template. A blank alone on its line is a text area of several lines, where Enter keeps the
// indent and Tab indents; any other is a text area of one line that wraps and grows. What a
// question saves is one text: the blank's for one blank, or each blank's, as JSON, for several.

/** Enter keeps the line's indent, Tab indents by four spaces (unless Escape came just before:
 * then Tab leaves the field, so the keyboard is never trapped). True when the key was used. */
function editKey(area, event, leaving) {
  const type = (text) => {
    // insertText keeps the browser's undo history; setRangeText where it is not supported.
    if (!document.execCommand?.("insertText", false, text)) {
      area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
  };
  if (event.key === "Tab" && !event.shiftKey && !leaving && !event.ctrlKey && !event.altKey) {
    event.preventDefault();
    type("    ");
    return true;
  }
  if (event.key === "Enter" && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault();
    const start = area.value.lastIndexOf("\n", area.selectionStart - 1) + 1;
    type(`\n${area.value.slice(start).match(/^ */)[0]}`);
    return true;
  }
  return false;
}

/**
 * One blank's field: it fits its text, keeps a one-line blank on one line, and calls
 * onInput(field) on each change and check() on Enter (Ctrl+Enter in a text of several lines).
 * Returns {field, fit, unmount}.
 */
export function blankField(field, { onInput, check }) {
  const lines = field.hasAttribute("data-lines"); // a text area: the blank spans several lines
  const minRows = lines ? field.rows : 0;
  // A one-line blank is a text area of one line that wraps (issue 31): as wide as its text
  // (24 characters at least) where the line has room, and as tall as its wrapped text.
  const fit = () => {
    if (lines) {
      field.rows = Math.max(minRows, field.value.split("\n").length + 1);
      return;
    }
    field.style.setProperty("--livelab-blank-chars", String(Math.max(24, field.value.length + 2)));
    field.style.blockSize = "auto";
    if (field.scrollHeight > field.clientHeight) {
      field.style.blockSize = `${field.scrollHeight + field.offsetHeight - field.clientHeight}px`;
    }
  };
  const oneLine = () => {
    // What a text input does with a pasted line break; the caret stays where it was.
    if (lines || !/[\r\n]/.test(field.value)) return;
    const caret = field.selectionEnd - (field.value.slice(0, field.selectionEnd).match(/\r\n/g)?.length ?? 0);
    field.value = field.value.replace(/\r\n|[\r\n]/g, " ");
    field.setSelectionRange(caret, caret);
  };
  let fittedWidth = 0;
  const resized = new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width === fittedWidth) return;
    fittedWidth = width;
    fit();
  });
  const changed = () => {
    oneLine();
    fit();
    onInput(field);
  };
  let leaving = false; // Escape was pressed: the next Tab leaves the text area
  const onKey = (event) => {
    if (lines) {
      const typed = editKey(field, event, leaving);
      leaving = event.key === "Escape";
      if (typed) return;
    }
    if (event.key === "Enter" && (!lines || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!event.repeat) check(); // a held-down Enter is one check
    }
  };
  fit();
  if (!lines) resized.observe(field); // a new width wraps the line anew
  field.addEventListener("input", changed);
  field.addEventListener("keydown", onKey);
  return {
    field,
    fit,
    unmount() {
      resized.disconnect();
      field.removeEventListener("input", changed);
      field.removeEventListener("keydown", onKey);
    },
  };
}

/** The saved text of a question's answer: the one blank's text, or for several blanks their
 * texts as JSON, each cut alike until it fits `limit` (cut: true then). */
export function packAnswer(texts, limit) {
  if (texts.length === 1) return { text: texts[0], cut: false }; // the record cuts it, and says
  let kept = texts;
  let share = Math.max(...texts.map((text) => text.length));
  let text = JSON.stringify(kept);
  while (text.length > limit) {
    share = Math.floor(share * 0.9);
    kept = texts.map((one) => one.slice(0, share));
    text = JSON.stringify(kept);
  }
  return { text, cut: kept !== texts };
}

/** Each blank's text from a saved answer: a list saved for `count` blanks, else (a single
 * blank's text, also one saved before the question had several) the first blank's. */
export function unpackAnswer(text, count) {
  if (count > 1) {
    try {
      const texts = JSON.parse(text);
      const fits = Array.isArray(texts) && texts.length === count;
      if (fits && texts.every((one) => typeof one === "string")) return texts;
    } catch {
      // not a list: a single blank's text
    }
  }
  return [text, ...Array(count - 1).fill("")];
}

/** The template as a program that runs: each blank's token replaced by its text, in order
 * (each further line of a several-line text at the blank's indent, as the grader puts it). */
export function fillProgram(program, token, texts) {
  const pieces = program.split(token);
  return pieces.reduce((filled, piece, index) => {
    const indent = filled.slice(filled.lastIndexOf("\n") + 1);
    const text = (texts[index - 1] || token).replaceAll("\n", `\n${indent}`);
    return filled + text + piece;
  });
}
