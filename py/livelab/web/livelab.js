// Entry point, loaded on every page as a module. Importing the runtime starts the Python
// worker at once; widgets mount on every page that mkdocs-material shows (document$ emits on
// the first load and after each instant navigation) and unmount when their page is left.

import "./offline.js";
import { progress } from "./progress/store.js";
import { runtime } from "./runtime/client.js";
import { showLoading } from "./widgets/loading.js";

const WIDGETS = {
  lab: () => import("./widgets/lab.js"),
  numeric: () => import("./widgets/numeric.js"),
  choice: () => import("./widgets/choice.js"),
  code: () => import("./widgets/code.js"),
  progress: () => import("./widgets/progress.js"),
  "page-progress": () => import("./widgets/page-progress.js"),
  "page-summary": () => import("./widgets/page-progress.js"),
};

const mounted = new Map(); // element -> unmount function
const NEEDS_PYTHON = '[data-livelab="lab"], [data-livelab="code"]';

async function typesetMath() {
  if (!document.querySelector(".arithmatex")) return;
  const { typeset } = await import("./math.js");
  typeset();
}

async function mountAll() {
  typesetMath();
  showLoading(runtime, document.querySelector(NEEDS_PYTHON) !== null);
  for (const [el, unmount] of mounted) {
    if (!el.isConnected) {
      unmount();
      mounted.delete(el);
    }
  }
  for (const el of document.querySelectorAll("[data-livelab]")) {
    const load = WIDGETS[el.dataset.livelab];
    if (!load || mounted.has(el)) continue;
    mounted.set(el, () => {});
    const widget = await load();
    if (el.isConnected) mounted.set(el, widget.mount(el, runtime));
  }
  noteStorage();
}

// Says once per page, above the first widget, why progress is not kept (if it is not), and
// brings the note up to date when the reason changes (storage full, then written again).
function noteStorage() {
  const first = document.querySelector("[data-livelab]:not([data-livelab=progress])");
  if (!first || !progress.problem) return;
  let note = document.querySelector(".livelab-storage-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "livelab-storage-note";
    note.setAttribute("role", "note");
    first.before(note);
  }
  note.textContent = progress.problem;
  // Data set aside is news once; storage that cannot be used stays worth saying on every page.
  if (progress.available && !progress.full) progress.problem = "";
}

document.addEventListener("livelab:storage", noteStorage);

if (globalThis.document$) globalThis.document$.subscribe(() => mountAll());
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
