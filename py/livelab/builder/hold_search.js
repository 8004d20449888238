// Inlined into every page by livelab.builder.early, after the script that starts Python's worker.
// mkdocs-material starts its search worker as soon as its bundle runs, and that worker builds
// the search index from every page's text at once. On a two-core machine that competes with
// Python's start: on a reload, bench/reload_ab.py (12 rounds) measured the lesson live a median
// 75 ms sooner without search, and 59 ms sooner with its worker held as here. So Material's
// search worker is created here as a stand-in that keeps what the page sends it, and the real
// one starts when livelab.js calls __livelabSearch.release() (Python's first lab view, or
// Python failed), when the student opens search or types a query, or after HOLD_MS. Only the
// worker at the address Material's page config names for search is held, and only while the
// page is parsed: then Worker is itself again.
(() => {
  if ("__livelabSearch" in self || typeof self.Worker !== "function") return;
  const HOLD_MS = 10_000;
  const RealWorker = self.Worker;
  const waiting = new Set();
  const releaseAll = () => {
    for (const held of waiting) held.start();
    waiting.clear();
  };
  self.__livelabSearch = { release: releaseAll };
  setTimeout(releaseAll, HOLD_MS);

  const searchURL = () => {
    try {
      const config = JSON.parse(document.getElementById("__config").textContent);
      return config.search ? new URL(config.search, document.baseURI).href : null;
    } catch {
      return null;
    }
  };

  class HeldWorker extends EventTarget {
    constructor(url, options) {
      super();
      this.args = [url, options];
      this.real = null;
      this.sent = [];
      this.ended = false;
      this.onmessage = this.onerror = this.onmessageerror = null;
      waiting.add(this);
    }
    start() {
      if (this.real || this.ended) return;
      waiting.delete(this);
      this.real = new RealWorker(...this.args);
      for (const type of ["message", "error", "messageerror"]) {
        this.real.addEventListener(type, (event) => {
          const copy = type === "error" ? new Event("error") : new MessageEvent(type, { data: event.data });
          this.dispatchEvent(copy);
          this[`on${type}`]?.call(this, copy);
        });
      }
      for (const message of this.sent.splice(0)) this.real.postMessage(message);
    }
    postMessage(message) {
      if (this.real) this.real.postMessage(message);
      else this.sent.push(message);
      if (this.sent.length > 1) this.start(); // a query: the student is searching
    }
    terminate() {
      this.ended = true;
      waiting.delete(this);
      this.real?.terminate();
    }
  }

  function Worker(url, options) {
    const search = searchURL();
    if (search === null || new URL(url, document.baseURI).href !== search) {
      return new RealWorker(url, options);
    }
    self.Worker = RealWorker;
    return new HeldWorker(url, options);
  }
  Worker.prototype = RealWorker.prototype;
  self.Worker = Worker;
  document.addEventListener("DOMContentLoaded", () => (self.Worker = RealWorker), { once: true });
  // Material focuses its query field when search opens (a click, or its "/" and "s" keys).
  document.addEventListener("focusin", (event) => {
    if (event.target.closest?.('[data-md-component="search"]')) releaseAll();
  });
})();
