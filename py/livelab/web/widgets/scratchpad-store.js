// The scratchpad's text, one per page, in localStorage under a key namespaced by the site's
// root path as saved progress is (two sites on one origin keep apart): {version, pages:
// {<page key>: text}}. Anything odd found there (unreadable JSON, a number for a text) reads
// as no text; storage that cannot be used keeps the text for the visit only.

const SITE_ROOT = new URL("../../../", import.meta.url); // assets/livelab/widgets/ -> site root
const KEY = `livelab-scratchpad:${SITE_ROOT.pathname}`;
const VERSION = 1;
export const TEXT_LIMIT = 100_000; // characters kept per page: a pasted flood must not fill storage

const isPlain = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function read() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "null");
    // Pages in an object without a prototype: a page key is only ever a key ("__proto__" too).
    if (isPlain(data) && data.version === VERSION && isPlain(data.pages)) {
      return { version: VERSION, pages: Object.assign(Object.create(null), data.pages) };
    }
  } catch {
    // unreadable or unavailable: start empty
  }
  return { version: VERSION, pages: Object.create(null) };
}

const unsaved = new Map(); // page key -> text, when storage refused it

/** The saved text of a page, or "" when there is none (or it is not a text). */
export function loadText(page) {
  if (unsaved.has(page)) return unsaved.get(page);
  const text = read().pages[page];
  return typeof text === "string" ? text : "";
}

/**
 * Save a page's text: "saved"; "cut" when only its first TEXT_LIMIT characters were stored
 * (the whole text is kept for the visit); "unsaved" when the browser would not store it (it
 * is kept for the visit).
 */
export function saveText(page, text) {
  const data = read();
  const kept = text.slice(0, TEXT_LIMIT);
  if (kept === "") delete data.pages[page];
  else data.pages[page] = kept;
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    unsaved.set(page, text);
    return "unsaved";
  }
  if (kept === text) {
    unsaved.delete(page);
    return "saved";
  }
  unsaved.set(page, text);
  return "cut";
}

/** Call back when another tab of this site changes the saved texts (the storage event). */
export function onOtherTab(callback) {
  globalThis.addEventListener?.("storage", (event) => {
    if (event.key === KEY || event.key === null) callback();
  });
}
