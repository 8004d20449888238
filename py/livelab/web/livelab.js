// Entry point, loaded on every page as a module. Importing the runtime starts the Python
// worker at once; widgets mount on every page that mkdocs-material shows (document$ emits on
// the first load and after each instant navigation) and unmount when their page is left.

import "./offline.js";
import { t } from "./i18n.js";
import { progress } from "./progress/store.js";
import { runtime, scratchRuntime } from "./runtime/page/client.js";
import { showLoading } from "./widgets/loading.js";
import { whenEachNear } from "./widgets/near-view.js";
import { install as installScratchpad } from "./widgets/scratchpad.js";

// An element marked data-livelab="<name>" is mounted by widgets/<name>.js, so a new question
// kind brings its widget without a list to add it to; only a shared widget is named here.
const SHARED_WIDGETS = { "page-summary": "page-progress" };
const WIDGET_NAME = /^[a-z][a-z-]*$/;

// Widgets already imported, by name: after an instant navigation they mount without waiting,
// so the labs send their first requests before the browser lays out the new page.
const imported = new Map();
const loading = new Map(); // name -> the import under way

function loadWidget(name) {
  if (!WIDGET_NAME.test(name)) return Promise.resolve(null);
  if (!loading.has(name)) {
    const widget = import(`./widgets/${SHARED_WIDGETS[name] ?? name}.js`).then(
      (module) => {
        imported.set(name, module);
        return module;
      },
      (err) => {
        loading.delete(name); // the next page asks again
        throw err;
      },
    );
    loading.set(name, widget);
  }
  return loading.get(name);
}

const mounted = new Map(); // element -> unmount function
// Widgets that call Python: labs, and every question whose markup says it needs Python.
const NEEDS_PYTHON = '[data-livelab="lab"], [data-livelab][data-needs-python]';

/** The element the address's #fragment names, if the page has it. */
function linkedElement() {
  const id = decodeURIComponent(location.hash.slice(1));
  return id ? document.getElementById(id) : null;
}

// Typeset maths is taller or shorter than its source: a link to a lab or question (a "Try it"
// box, the progress summary, an address with #id) has already scrolled the page when the
// maths above its target is typeset, so the target is put back where the link left it.
// Formulas are typeset as the reader nears them (widgets/near-view.js); a page left behind
// stops waiting for its formulas.
let mathWaiting = [];
async function typesetMath() {
  for (const cancel of mathWaiting.splice(0)) cancel();
  const formulas = [...document.querySelectorAll(".arithmatex:not([data-typeset])")];
  if (formulas.length === 0) return;
  const { typesetElement } = await import("./math.js");
  mathWaiting = whenEachNear(formulas, (near) => {
    // Only a target the link brought to the top part of the window: after a reload the
    // browser may have put the reader somewhere else, or the reader has scrolled on.
    const linked = linkedElement();
    const before = linked?.getBoundingClientRect().top;
    const target = Math.abs(before) < globalThis.innerHeight / 2 ? linked : null;
    for (const el of near) typesetElement(el);
    if (target?.isConnected) globalThis.scrollBy(0, target.getBoundingClientRect().top - before);
  });
}

async function mountAll() {
  // The page now on screen, for the first lines' same-page links (builder/same_page_links.js).
  if (globalThis.__livelabSamePage) globalThis.__livelabSamePage.shown = location.pathname + location.search;
  typesetMath();
  installScratchpad(scratchRuntime); // once per tab; after a page change it shows that page's text
  showLoading(runtime, document.querySelector(NEEDS_PYTHON) !== null);
  noteStorage(); // now, not after every widget has loaded: one slow import must not hide it
  // A lab's controls take input before its widget arrives (builder/early_labs.js); after an
  // instant navigation the new page's labs are opened here.
  globalThis.__livelabLabsEarly?.enable();
  for (const [el, unmount] of mounted) {
    if (!el.isConnected) {
      unmount();
      mounted.delete(el);
    }
  }
  // Every widget module the page needs is asked for at once, not one after another's arrival:
  // a lab's module no longer waits behind the question widgets above it (issue 31).
  const elements = [...document.querySelectorAll("[data-livelab]")];
  for (const name of new Set(elements.map((el) => el.dataset.livelab))) {
    if (!imported.has(name)) loadWidget(name).catch(() => {}); // a failure shows when awaited
  }
  // Widgets whose module is here mount first, those that call Python first of all: after a
  // page change a lab's first request does not wait for the widgets above it (issue 32).
  const order = (el) => (imported.has(el.dataset.livelab) ? 0 : 2) + (el.matches(NEEDS_PYTHON) ? 0 : 1);
  for (const el of [...elements].sort((a, b) => order(a) - order(b))) {
    if (mounted.has(el)) continue;
    mounted.set(el, () => {});
    const name = el.dataset.livelab;
    const widget = imported.get(name) ?? (await loadWidget(name));
    if (widget && el.isConnected) mounted.set(el, widget.mount(el, runtime));
  }
  noteStorage();
  reachWideTables();
}

// Says once per page, above the first widget, why progress is not kept (if it is not), and
// brings the note up to date when the reason changes (storage full, then written again: the
// note goes).
function noteStorage() {
  const first = document.querySelector("[data-livelab]:not([data-livelab=progress])");
  let note = document.querySelector(".livelab-storage-note");
  if (!progress.problem && note?.dataset.full !== undefined) note.remove();
  if (!first || !progress.problem) return;
  if (!note) {
    note = document.createElement("p");
    note.className = "livelab-storage-note";
    note.setAttribute("role", "note");
    first.before(note);
  }
  note.textContent = progress.problem;
  note.toggleAttribute("data-full", progress.full);
  // Data set aside is news once; storage that cannot be used stays worth saying on every page.
  if (progress.available && !progress.full) progress.problem = "";
}

document.addEventListener("livelab:storage", noteStorage);

// A table wider than the column scrolls sideways inside Material's wrapper; a keyboard can
// scroll it only if the wrapper takes focus, so a wrapper that overflows is a named, focusable
// region, and stops being one when it fits again. Watched for size: typeset maths and a
// window resized change whether it overflows.
const WIDE = t("widget.wide_table");
function markWide(wrap) {
  if (wrap.scrollWidth > wrap.clientWidth + 1) {
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", WIDE);
  } else if (wrap.getAttribute("aria-label") === WIDE) {
    for (const name of ["tabindex", "role", "aria-label"]) wrap.removeAttribute(name);
  }
}
const tableSizes = globalThis.ResizeObserver
  ? new ResizeObserver((entries) => {
      for (const entry of entries) markWide(entry.target.closest(".md-typeset__scrollwrap"));
    })
  : null;

function reachWideTables() {
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
    const table = wrap.querySelector("table"); // prose's, or a question prompt's
    if (!table) continue;
    markWide(wrap);
    tableSizes?.observe(wrap);
    tableSizes?.observe(table);
  }
}

if (globalThis.document$) globalThis.document$.subscribe(() => mountAll());
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
