// Typesets the page's math (pymdownx.arithmatex, generic mode) with KaTeX served by the site.

import katex from "./katex/katex.mjs";

const DELIMITERS = /^\\[([]([\s\S]*)\\[)\]]$/;
// A page's maths is typeset a slice at a time: a page of 150 formulas takes 100 ms to over
// a second of the main thread on a busy machine, and a lab's reply or a student's input
// must not wait for all of it (issue 32: a page reached by link answers at once).
const SLICE_MS = 8;

function typesetOne(el) {
  if (el.dataset.typeset !== undefined || !el.isConnected) return;
  const match = el.textContent.trim().match(DELIMITERS);
  if (!match) return;
  katex.render(match[1], el, { displayMode: el.tagName === "DIV", throwOnError: false });
  el.dataset.typeset = "";
}

const pending = (root) => root.querySelectorAll(".arithmatex:not([data-typeset])");

/** Typeset the maths under root now, all of it (a hint or a reason just put in). */
export function typeset(root = document) {
  for (const el of pending(root)) typesetOne(el);
}

/** Lets the page handle what waits (input, a worker's reply, a frame) before going on: a
 * timer, which goes behind them (scheduler.yield's continuation would go ahead of a reply). */
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Typeset the page's maths a slice of SLICE_MS at a time, in page order, letting the page
 * handle what waits in between; afterSlice() runs after each slice. A formula its page left
 * (an instant navigation on the way) is skipped.
 */
export async function typesetPage(afterSlice = () => {}) {
  const all = [...pending(document)];
  let next = 0;
  while (next < all.length) {
    const sliceEnd = performance.now() + SLICE_MS;
    do typesetOne(all[next++]);
    while (next < all.length && performance.now() < sliceEnd);
    afterSlice();
    if (next < all.length) await yieldToPage();
  }
}
