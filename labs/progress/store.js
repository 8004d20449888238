// Saved progress: answers, verdicts, attempts and lab positions, per page and item, in
// localStorage under a key namespaced by the site's root path (two sites on one origin
// keep apart) with a schema version. Corrupt or old data is moved aside, never trusted;
// when storage is unavailable everything works and `available` is false.

const SCHEMA = 1;
const SITE_ROOT = new URL("../../../", import.meta.url); // assets/livelab/progress/ -> site root
const KEY = `livelab-progress:${SITE_ROOT.pathname}`;

function emptyStore() {
  return { version: SCHEMA, pages: {} };
}

function isValid(data) {
  return (
    data !== null &&
    typeof data === "object" &&
    data.version === SCHEMA &&
    data.pages !== null &&
    typeof data.pages === "object" &&
    !Array.isArray(data.pages)
  );
}

class ProgressStore {
  constructor() {
    this.available = true;
    this.problem = "";
    this.data = this.read();
  }

  read() {
    let text;
    try {
      text = localStorage.getItem(KEY);
    } catch (err) {
      return this.unavailable(err);
    }
    if (text === null) return emptyStore();
    try {
      const data = JSON.parse(text);
      if (isValid(data)) return data;
    } catch {
      // falls through: unreadable data is set aside below
    }
    this.setAside(text);
    return emptyStore();
  }

  unavailable(err) {
    this.available = false;
    this.problem = `Your progress is not being saved: this browser does not let the page store data (${err.name}).`;
    return emptyStore();
  }

  setAside(text) {
    try {
      localStorage.setItem(`${KEY}:set-aside`, text);
      localStorage.removeItem(KEY);
      this.problem = "Saved progress could not be read, so it was set aside and this page starts fresh.";
    } catch (err) {
      this.unavailable(err);
    }
  }

  write() {
    if (!this.available) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(this.data));
    } catch (err) {
      this.unavailable(err);
      document.dispatchEvent(new CustomEvent("livelab:storage"));
    }
  }

  /** The page key of the current location: its path below the site root. */
  pageKey() {
    const path = decodeURI(location.pathname);
    return path.startsWith(SITE_ROOT.pathname) ? path.slice(SITE_ROOT.pathname.length) : path;
  }

  get(section, id) {
    const item = this.data.pages[this.pageKey()]?.[section]?.[id];
    return item && typeof item === "object" ? item : null;
  }

  set(section, id, value) {
    const page = (this.data.pages[this.pageKey()] ??= {});
    const items = (page[section] ??= {});
    items[id] = value;
    this.write();
    document.dispatchEvent(new CustomEvent("livelab:progress", { detail: { section, id } }));
  }

  /** Saved questions of a page, {id: {verdict, ...}}, for the progress table. */
  questionsOf(pageKey) {
    const questions = this.data.pages[pageKey]?.questions;
    return questions && typeof questions === "object" ? questions : {};
  }

  reset() {
    this.data = emptyStore();
    this.write();
  }
}

export const progress = new ProgressStore();
