// Keeping the reader's place across a layout change: the docked scratchpad narrows the page's
// column as it opens and widens it as it closes (issue 31).

// What a student reads, finest first: keepPlace holds the innermost of these at the top.
const BLOCKS =
  "p, li, dt, dd, tr, pre, summary, figure, h1, h2, h3, h4, h5, h6, .admonition-title, " +
  ".katex-display, .livelab-control, .livelab-lab > *";

/**
 * The block the student is reading: the first block of the content that begins below the
 * header, in the window's upper half (the paragraph at the top of the window); else the
 * innermost block that runs on from above the header (a long lab, a long list item).
 */
function readingAnchor() {
  const content = document.querySelector(".md-content");
  if (!content) return null;
  const top = document.querySelector(".md-header")?.getBoundingClientRect().bottom ?? 0;
  let straddling = null;
  for (const block of content.querySelectorAll(BLOCKS)) {
    if (block.checkVisibility?.() === false) continue; // in a closed fold: boxes, not shown
    const box = block.getBoundingClientRect();
    if (box.height === 0 || box.bottom <= top) continue;
    if (box.top >= top - 1) return box.top < innerHeight / 2 || !straddling ? block : straddling;
    straddling = block; // blocks come in document order: a block's insides after it
  }
  return straddling;
}

/**
 * Make a layout change (the docked panel narrows the page's column) without losing the
 * student's place (issue 31): the block at the top of the window is put back at the same
 * height once the change is laid out, and again in the next two frames, when the figures'
 * text and Material's sidebars have settled at the new width.
 */
export function keepPlace(change) {
  const anchor = readingAnchor();
  const before = anchor?.getBoundingClientRect().top;
  change();
  if (!anchor) return;
  const restore = () => {
    if (!anchor.isConnected) return;
    const moved = anchor.getBoundingClientRect().top - before;
    if (Math.abs(moved) >= 1) scrollBy(0, moved);
  };
  restore();
  requestAnimationFrame(() => {
    restore();
    requestAnimationFrame(restore);
  });
}
