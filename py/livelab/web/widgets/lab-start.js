// Where a lab starts when its widget mounts, and how a moved control brings its mirrors along:
// what the student moved before the widget arrived (the page's first script opened the controls,
// builder/early_labs.js), else the positions saved from an earlier visit, else the build's.

import { progress } from "../progress/store.js";

/** After a control moved, bring the other controls of the same value along. */
export function syncMirrors(el, source) {
  if (source.type !== "range" && source.type !== "number") return;
  if (!Number.isFinite(source.valueAsNumber)) return;
  const index = source.dataset.index;
  const selector =
    `[data-param="${CSS.escape(source.dataset.param)}"]` +
    (index === undefined ? "" : `[data-index="${CSS.escape(index)}"]`);
  for (const other of el.querySelectorAll(selector)) {
    if (other !== source && (other.type === "range" || other.type === "number")) {
      other.value = source.value;
    }
  }
}

function sameShape(value, like) {
  if (Array.isArray(like)) {
    return Array.isArray(value) && value.length === like.length && value.every((v) => typeof v === "number");
  }
  return typeof value === typeof like;
}

/**
 * Saved positions of this lab that still fit it: known params with values of the same type
 * (and, for lists, the same length). Anything else, from an older page or a corrupt store,
 * is dropped, and Python still checks ranges before a position is shown.
 */
function savedParams(el) {
  const saved = progress.get("labs", el.dataset.lab)?.params;
  if (!saved || typeof saved !== "object") return {};
  const current = JSON.parse(el.dataset.params);
  return Object.fromEntries(
    Object.entries(saved).filter(([name, value]) => Object.hasOwn(current, name) && sameShape(value, current[name])),
  );
}

/**
 * The controls a student moved before this widget mounted (the page's first script opened them
 * and numbered each move in data-early, builder/early_labs.js): each carries its value to the
 * other controls of its value, the last move winning. Returns the names of those params,
 * which saved positions must not undo.
 */
function adoptEarlyInput(el) {
  const moved = new Set();
  const synced = new Set(); // each value once, from the control moved last
  const early = [...el.querySelectorAll("[data-param][data-early]")];
  early.sort((a, b) => Number(b.dataset.early) - Number(a.dataset.early)); // the last move first
  for (const control of early) {
    control.removeAttribute("data-early");
    moved.add(control.dataset.param);
    const value = `${control.dataset.param} ${control.dataset.index ?? ""}`;
    if (!synced.has(value)) syncMirrors(el, control);
    synced.add(value);
  }
  return moved;
}

/**
 * Puts the controls where the lab starts (writeParams) and returns the names of the params
 * the student moved before the widget mounted.
 */
export function startControls(el, writeParams) {
  const early = adoptEarlyInput(el);
  const saved = Object.entries(savedParams(el)).filter(([name]) => !early.has(name));
  writeParams(el, Object.fromEntries(saved));
  return early;
}
