// Typesets the page's math (pymdownx.arithmatex, generic mode) with KaTeX served by the site.

import katex from "./katex/katex.mjs";

const DELIMITERS = /^\\[([]([\s\S]*)\\[)\]]$/;

export function typeset(root = document) {
  for (const el of root.querySelectorAll(".arithmatex:not([data-typeset])")) {
    const source = el.textContent.trim();
    const match = source.match(DELIMITERS);
    if (!match) continue;
    katex.render(match[1], el, { displayMode: el.tagName === "DIV", throwOnError: false });
    el.dataset.typeset = "";
  }
}
