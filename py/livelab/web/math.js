// Typesets the page's math (pymdownx.arithmatex, generic mode) with KaTeX served by the site.

import katex from "./katex/katex.mjs";

const DELIMITERS = /^\\[([]([\s\S]*)\\[)\]]$/;

/** Typeset one .arithmatex element (once). */
export function typesetElement(el) {
  if (el.dataset.typeset !== undefined || !el.isConnected) return;
  const match = el.textContent.trim().match(DELIMITERS);
  if (!match) return;
  katex.render(match[1], el, { displayMode: el.tagName === "DIV", throwOnError: false });
  el.dataset.typeset = "";
}

/** Typeset the maths under root now, all of it (a hint or a reason just put in). */
export function typeset(root = document) {
  for (const el of root.querySelectorAll(".arithmatex:not([data-typeset])")) typesetElement(el);
}
