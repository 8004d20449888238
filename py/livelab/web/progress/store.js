// Saved progress: answers, verdicts, attempts and lab positions, per page and item, in
// localStorage under a key namespaced by the site's root path (two sites on one origin keep
// apart) with a schema version (progress/schema.js checks every level).
//
// Nothing is lost: a change is merged into what is stored at the moment it is written (so
// two tabs never erase each other's answers), another tab's change arrives through the
// `storage` event, odd saved data is set aside while what fits is kept, and a full storage
// is retried on the next change. When storage cannot be used at all, everything still works
// and `available` is false.

import { canonicalPath } from "../address.js";
import { cleanProgress, SCHEMA } from "./schema.js";

export const SITE_ROOT = new URL("../../../", import.meta.url); // assets/livelab/progress/ -> site root
const KEY = `livelab-progress:${SITE_ROOT.pathname}`;
const SET_ASIDE = `${KEY}:set-aside`;

const emptyStore = () => ({ version: SCHEMA, pages: {} });
const announce = (name, detail = {}) => document.dispatchEvent(new CustomEvent(name, { detail }));

class ProgressStore {
  constructor() {
    this.available = true;
    this.problem = "";
    this.data = this.load();
    globalThis.addEventListener?.("storage", (event) => {
      if (event.key !== KEY && event.key !== null) return;
      this.data = this.load();
      announce("livelab:progress", { external: true });
    });
  }

  /** What is stored now, cleaned; odd parts are set aside with a one-time note. */
  load() {
    let text;
    try {
      text = localStorage.getItem(KEY);
    } catch (err) {
      return this.unavailable(err);
    }
    if (text === null) return emptyStore();
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // unreadable JSON: set aside below
    }
    const { data, dropped } = cleanProgress(parsed);
    if (dropped === 0) return data;
    this.setAside(text, data ? "Part of your saved progress" : "Saved progress");
    if (data) this.write(data);
    return data ?? emptyStore();
  }

  unavailable(err) {
    this.available = false;
    this.problem = `Your progress is not being saved: this browser does not let the page store data (${err.name}).`;
    return emptyStore();
  }

  setAside(text, what) {
    try {
      localStorage.setItem(SET_ASIDE, text);
      localStorage.removeItem(KEY);
      this.problem = `${what} could not be read, so it was set aside; everything else is kept.`;
    } catch (err) {
      this.unavailable(err);
    }
  }

  write(data) {
    if (!this.available) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      if (this.full) {
        this.full = false;
        this.problem = "";
      }
    } catch (err) {
      if (err.name === "QuotaExceededError" || err.code === 22) {
        // Full, not forbidden: say so and try again with the next change.
        this.full = true;
        this.problem =
          "The storage this browser gives the site is full, so your latest change was not saved. " +
          "It will be tried again with your next change.";
      } else {
        this.unavailable(err);
      }
      announce("livelab:storage");
    }
  }

  /** The page key of the current location: the page's own path (address.js) below the site root. */
  pageKey() {
    const path = decodeURI(canonicalPath(location.pathname));
    return path.startsWith(SITE_ROOT.pathname) ? path.slice(SITE_ROOT.pathname.length) : path;
  }

  get(section, id) {
    const item = this.data.pages[this.pageKey()]?.[section]?.[id];
    return item && typeof item === "object" ? item : null;
  }

  /** Change one item: re-read what is stored (another tab may have written), change it, write. */
  set(section, id, value) {
    const fresh = this.available ? this.load() : this.data;
    const page = (fresh.pages[this.pageKey()] ??= {});
    (page[section] ??= {})[id] = value;
    this.data = fresh;
    this.write(fresh);
    announce("livelab:progress", { section, id });
  }

  /** Saved questions of a page, {id: {verdict, ...}}, for the progress lists. */
  questionsOf(pageKey) {
    const questions = this.data.pages[pageKey]?.questions;
    return questions && typeof questions === "object" ? questions : {};
  }

  reset() {
    this.data = emptyStore();
    this.write(this.data);
    announce("livelab:progress", { reset: true });
  }
}

export const progress = new ProgressStore();
