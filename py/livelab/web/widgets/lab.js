// A lab widget: controls in, view out, the same code for every lab. The markup (built by
// livelab.labs.markup in Python) marks everything, and Python computes every number and shape:
//
//   [data-param]              a control: range or number input (a number), checkbox (true or
//                             false) or radio button (its value when checked).
//                             data-index="i" makes it entry i of a list param; a
//                             data-mirror control only follows the primary control of its value.
//   [data-params] on the lab  every param's value at build time, the base readParams starts from
//   button[data-step]         adds data-by to each named param ("q_pos k_pos")
//   button[data-set]          puts the controls at the JSON params it carries
//   button[data-sign]         "±": changes the sign of the number field it controls (./sign.js),
//                             which then updates the lab as typing in it would
//
// A view from Python may hold: text {name: string} for [data-text], attrs {name: {attr: value}}
// for [data-attrs], svg {name: [{tag, attrs, text?, children?}]} redrawn inside
// [data-shapes], rows {name: [[cell, ...]]} rebuilt inside tbody[data-rows], hidden
// {name: bool} for [data-hide], and error (a message for [data-error]; the lab is marked
// data-stale while it shows one, and keeps its last good drawing). Text always goes in as
// textContent; shapes are created element by element from a fixed list of SVG tags.

import { t } from "../i18n.js";
import { progress } from "../progress/store.js";
import { coalesce } from "../runtime/page/coalesce.js";
import { labView } from "../runtime/page/views.js";
import { startControls, syncMirrors } from "./lab-start.js";
import { bindScratch } from "./scratchpad-lab.js";
import { bindSign } from "./sign.js";
import { bindStatus } from "./status.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["g", "line", "polyline", "path", "rect", "circle", "text"]);
const UNSAFE_ATTR = /^(on|href$|xlink:href$|style$)/i;

/** The controls that carry a value (mirrors only follow them). */
function valueControls(el) {
  return el.querySelectorAll("[data-param]:not([data-mirror])");
}

function controlValue(control) {
  if (control.type === "checkbox") return control.checked;
  if (control.type === "range" || control.type === "number") {
    const number = control.valueAsNumber;
    return Number.isFinite(number) ? number : null; // Python explains an empty or bad field
  }
  return control.value;
}

/** The lab's current params: the build-time values overlaid with what every control shows. */
export function readParams(el) {
  const params = JSON.parse(el.dataset.params);
  for (const control of valueControls(el)) {
    if (control.type === "radio" && !control.checked) continue;
    const name = control.dataset.param;
    const value = controlValue(control);
    if (control.dataset.index === undefined) {
      params[name] = value;
    } else {
      params[name] = [...params[name]];
      params[name][Number(control.dataset.index)] = value;
    }
  }
  return params;
}

/**
 * Put the controls at the given params (any subset). A param without a control (such as a
 * lab's `run` flag) is kept in the lab's data-params, where readParams finds it.
 */
export function writeParams(el, params) {
  const base = JSON.parse(el.dataset.params);
  let baseChanged = false;
  for (const [name, value] of Object.entries(params)) {
    const controls = el.querySelectorAll(`[data-param="${CSS.escape(name)}"]`);
    if (controls.length === 0) {
      base[name] = value;
      baseChanged = true;
    }
    for (const control of controls) {
      const index = control.dataset.index;
      const own = index === undefined ? value : value[Number(index)];
      if (control.type === "radio") control.checked = control.value === String(own);
      else if (control.type === "checkbox") control.checked = Boolean(own);
      else control.value = String(own);
    }
  }
  if (baseChanged) el.dataset.params = JSON.stringify(base);
}

function svgElement(item) {
  if (!SVG_TAGS.has(item.tag)) throw new Error(`cannot draw <${item.tag}>`);
  const node = document.createElementNS(SVG_NS, item.tag);
  for (const [name, value] of Object.entries(item.attrs ?? {})) {
    if (!UNSAFE_ATTR.test(name)) node.setAttribute(name, String(value));
  }
  if (item.text !== undefined) node.textContent = item.text;
  for (const child of item.children ?? []) node.append(svgElement(child));
  return node;
}

function tableRow(cells) {
  const row = document.createElement("tr");
  cells.forEach((text, i) => {
    const cell = document.createElement(i === 0 ? "th" : "td");
    if (i === 0) cell.scope = "row";
    cell.textContent = text;
    row.append(cell);
  });
  return row;
}

function applyView(el, view) {
  for (const node of el.querySelectorAll("[data-text]")) {
    const value = view.text?.[node.dataset.text];
    if (value !== undefined && node.textContent !== value) node.textContent = value;
  }
  for (const node of el.querySelectorAll("[data-attrs]")) {
    for (const [name, value] of Object.entries(view.attrs?.[node.dataset.attrs] ?? {})) {
      if (!UNSAFE_ATTR.test(name)) node.setAttribute(name, value);
    }
  }
  for (const node of el.querySelectorAll("[data-shapes]")) {
    const shapes = view.svg?.[node.dataset.shapes];
    if (shapes !== undefined) node.replaceChildren(...shapes.map(svgElement));
  }
  for (const node of el.querySelectorAll("[data-rows]")) {
    const rows = view.rows?.[node.dataset.rows];
    if (rows !== undefined) node.replaceChildren(...rows.map(tableRow));
  }
  for (const node of el.querySelectorAll("[data-hide]")) {
    const hidden = view.hidden?.[node.dataset.hide];
    if (hidden !== undefined) node.hidden = hidden;
  }
  showError(el, view.error ?? "");
}

/** The lab's message for settings it cannot use; true if the lab has a place for it. */
function showError(el, message) {
  const line = el.querySelector("[data-error]");
  el.toggleAttribute("data-stale", message !== "");
  if (!line) return false;
  if (line.textContent !== message) line.textContent = message;
  return true;
}

function stepTargets(el, button) {
  return button.dataset.step
    .split(/\s+/)
    .map((name) => el.querySelector(`[data-param="${CSS.escape(name)}"]:not([data-mirror])`));
}

function refreshSteppers(el) {
  for (const button of el.querySelectorAll("[data-step]")) {
    const by = Number(button.dataset.by);
    // A step back (data-by < 0) stops at the minimum, as a step forward stops at the maximum.
    button.disabled = stepTargets(el, button).some(
      (input) => input.valueAsNumber + by > Number(input.max) || input.valueAsNumber + by < Number(input.min),
    );
  }
}

// ---- Figure text keeps its size (issue 13) ----
// SVG text is sized in viewBox units and would scale with the figure (28 px on a laptop,
// 9 px on a phone). livelab.css draws it at 14 px times --livelab-svg-scale, which is set
// here to viewBox width / drawn width whenever a lab's SVG is resized or gets a new viewBox.
function fitFigureText(svg) {
  const box = svg.viewBox?.baseVal;
  const drawn = svg.getBoundingClientRect().width;
  if (!box || box.width <= 0 || drawn <= 0) return; // hidden (a closed <details>): wait
  svg.style.setProperty("--livelab-svg-scale", (box.width / drawn).toFixed(4));
}

const figureResizes = new ResizeObserver((entries) => {
  for (const entry of entries) fitFigureText(entry.target);
});

function watchFigures(el) {
  const figures = [...el.querySelectorAll("svg[viewBox]")];
  for (const svg of figures) figureResizes.observe(svg);
  return {
    refit: () => figures.forEach(fitFigureText),
    stop: () => figures.forEach((svg) => figureResizes.unobserve(svg)),
  };
}
// ---- end of figure text ----

/** How far (px) the lab is from the viewport: 0 while any of it shows. */
function fromViewport(el) {
  const box = el.getBoundingClientRect();
  return Math.max(0, box.top - innerHeight, -box.bottom);
}

export function mount(el, runtime) {
  const kind = el.dataset.labKind;
  // A lab that runs (./lab-run.js) asks Python only when the student presses Run: its first
  // view is the build's run to its end, and a change of settings is for the next run.
  const runs = el.hasAttribute("data-lab-runs");
  let unbindRun = () => {};
  const status = bindStatus(el, runtime);
  const unbindScratch = bindScratch(el, runtime, { readParams, status });
  const unbindSign = bindSign(el); // "±" beside a number field that takes negative values
  const figures = watchFigures(el); // issue 13: figure text keeps its size
  let mounted = true;
  let moved = false; // the student moved a control of this lab since the page opened

  let asking = false; // a view request waits or runs: the worker answers it once ready
  const update = coalesce(
    async (params) => {
      asking = true;
      try {
        return await labView(runtime, kind, params, () => fromViewport(el));
      } finally {
        asking = false;
      }
    },
    (reply, params) => {
      if (!mounted) return;
      applyView(el, reply.view);
      figures.refit(); // a new viewBox (issue 13)
      // Only positions Python accepted; touchedAt (home's "Continue") only when the student
      // moved something since the page opened, not for the view every visit draws.
      const touchedAt = moved ? Date.now() : progress.get("labs", el.dataset.lab)?.touchedAt;
      progress.set("labs", el.dataset.lab, touchedAt ? { params, touchedAt } : { params });
      status.ok();
      el.dispatchEvent(new CustomEvent("livelab:view", { bubbles: true }));
    },
    (err) => {
      if (!mounted) return;
      // Settings Python refused (an empty field, a number out of range) are the student's to
      // fix: say so where the lab shows its messages, and keep the last good view.
      if (err.type === "ValueError" && showError(el, err.message)) {
        status.ok();
        el.dispatchEvent(new CustomEvent("livelab:view", { bubbles: true }));
        return;
      }
      // A runtime that failed to start is already explained, with a Retry, on the status line.
      if (err.type !== "RuntimeUnavailable") status.error(t("lab.update_failed", { message: err.message }));
    },
  );
  const refresh = () => {
    refreshSteppers(el);
    if (!runs) update(readParams(el));
  };
  const onInput = (event) => {
    if (!event.target.matches("[data-param]")) return;
    moved = true;
    syncMirrors(el, event.target);
    refresh();
  };
  const onClick = (event) => {
    const button = event.target.closest("button[data-step], button[data-set]");
    if (!button || !el.contains(button) || button.disabled) return;
    moved = true;
    if (button.dataset.set !== undefined) {
      writeParams(el, JSON.parse(button.dataset.set));
    } else {
      const params = readParams(el);
      const by = Number(button.dataset.by);
      const moved = {};
      for (const name of button.dataset.step.split(/\s+/)) moved[name] = params[name] + by;
      writeParams(el, moved);
    }
    refresh();
  };

  for (const control of el.querySelectorAll("[data-param], button[data-step], button[data-set], button[data-sign]")) {
    control.disabled = false;
  }
  el.setAttribute("data-mounted", ""); // from now on this widget takes the input itself
  moved = startControls(el, writeParams).size > 0;
  el.addEventListener("input", onInput);
  el.addEventListener("click", onClick);
  // Whenever a (re)started worker becomes ready, bring the view up to date from it, unless
  // a request is already waiting for it (the first view on a page load: asking twice made
  // the first lab view wait for a second request behind it).
  const onStatus = (event) => event.detail.state === "ready" && !asking && refresh();
  runtime.addEventListener("status", onStatus);
  refresh();
  if (runs) {
    const draw = (view) => {
      applyView(el, view);
      figures.refit();
    };
    import("./lab-run.js").then(({ bindRun }) => {
      if (mounted) unbindRun = bindRun(el, runtime, { readParams, applyView: draw, status });
    });
  }

  return () => {
    mounted = false;
    unbindRun();
    el.removeAttribute("data-mounted");
    unbindScratch();
    figures.stop(); // issue 13
    status.unbind();
    runtime.removeEventListener("status", onStatus);
    el.removeEventListener("input", onInput);
    el.removeEventListener("click", onClick);
    unbindSign();
  };
}
