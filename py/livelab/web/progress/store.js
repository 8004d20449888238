// Saved progress: answers, verdicts, attempts and lab positions, per page and item, in
// localStorage under a key namespaced by the site's root path (two sites on one origin keep
// apart) with a schema version (progress/schema.js checks every level).
//
// Nothing is lost: a change is merged into what is stored at the moment it is written (so
// two tabs never erase each other's answers), another tab's change arrives through the
// `storage` event, and odd saved data is set aside while what fits is kept. While storage is
// full every change waits in memory (progress/pending.js) and is written, with all the others,
// at the next change, every few seconds, and when the tab is hidden; the note says what waits
// until then. When storage cannot be used at all, everything still works and `available` is
// false.

import { canonicalPath } from "../address.js";
import { t } from "../i18n.js";
import { PendingChanges } from "./pending.js";
import { cleanProgress, emptyProgress } from "./schema.js";

export const SITE_ROOT = new URL("../../../", import.meta.url); // assets/livelab/progress/ -> site root
const KEY = `livelab-progress:${SITE_ROOT.pathname}`;
const SET_ASIDE = `${KEY}:set-aside`;
export const RETRY_MS = 3_000; // while storage is full, how often the waiting changes are tried

const announce = (name, detail = {}) => document.dispatchEvent(new CustomEvent(name, { detail }));
const isFull = (err) => err?.name === "QuotaExceededError" || err?.code === 22;

class ProgressStore {
  constructor() {
    this.available = true;
    this.full = false;
    this.problem = "";
    this.pending = new PendingChanges();
    this.retryTimer = null;
    this.data = this.load();
    globalThis.addEventListener?.("storage", (event) => {
      if (event.key !== KEY && event.key !== null) return;
      // What waits here stays in view, and is tried again: the other tab may have made room.
      if (this.pending.size) this.flush();
      else this.data = this.load();
      announce("livelab:progress", { external: true });
    });
    // The last chance before a tab is closed or put away; also a cheap moment to retry.
    document.addEventListener?.("visibilitychange", () => this.pending.size && this.flush());
    globalThis.addEventListener?.("pagehide", () => this.pending.size && this.flush());
    // Leaving with changes that could not be written: the browser asks first.
    globalThis.addEventListener?.("beforeunload", (event) => {
      if (this.pending.size) event.preventDefault();
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
    this.asideWaits = false;
    if (text === null) return emptyProgress();
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // unreadable JSON: set aside below
    }
    const { data, dropped } = cleanProgress(parsed);
    if (dropped === 0) return data;
    const note = data ? t("progress.set_aside_part") : t("progress.set_aside_all");
    if (this.setAside(text, note) && data) this.write(data);
    return data ?? emptyProgress();
  }

  unavailable(err) {
    this.available = false;
    this.full = false;
    this.problem = t("progress.unavailable", { error: err.name });
    return emptyProgress();
  }

  /** Keep the odd text under its own key, and say so (note). When storage is too full for
   * that copy, nothing is written over the odd text (asideWaits) until it fits: false then. */
  setAside(text, note) {
    try {
      localStorage.setItem(SET_ASIDE, text);
      localStorage.removeItem(KEY);
      this.problem = note;
      return true;
    } catch (err) {
      if (isFull(err)) this.full = this.asideWaits = true;
      else this.unavailable(err);
      return false;
    }
  }

  /** Write data; true when it was written. */
  write(data) {
    if (!this.available || this.asideWaits) return false;
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      return true;
    } catch (err) {
      if (isFull(err)) this.full = true;
      else this.unavailable(err);
      return false;
    }
  }

  /** Write every waiting change onto what is stored now; while storage is full, keep them
   * (and say which) and try again every RETRY_MS, at the next change and when hidden. */
  flush() {
    const wasAvailable = this.available;
    const stored = this.available ? this.load() : null;
    this.data = this.pending.applyTo(stored && this.available ? stored : this.data);
    if (this.write(this.data) || !this.available) {
      this.pending.clear(); // written, or kept in memory for the visit like everything else
      clearInterval(this.retryTimer);
      this.retryTimer = null;
      const recovered = this.full && this.available;
      if (recovered) {
        this.full = false;
        this.problem = "";
      }
      if (recovered || wasAvailable !== this.available) announce("livelab:storage");
      return;
    }
    this.problem = t("progress.storage_full", { waiting: this.pending.describe() });
    announce("livelab:storage");
    this.retryTimer ??= setInterval(() => this.flush(), RETRY_MS);
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
    this.pending.set(this.pageKey(), section, id, value);
    this.flush();
    announce("livelab:progress", { section, id });
  }

  /** Saved questions of a page, {id: {verdict, ...}}, for the progress lists. */
  questionsOf(pageKey) {
    return this.data.pages[pageKey]?.questions ?? {};
  }

  /** Saved labs of a page, {id: {params, touchedAt?}}. */
  labsOf(pageKey) {
    return this.data.pages[pageKey]?.labs ?? {};
  }

  reset() {
    this.pending.reset();
    this.flush();
    announce("livelab:progress", { reset: true });
  }
}

export const progress = new ProgressStore();
