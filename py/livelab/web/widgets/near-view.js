// Work that can wait until the reader nears an element: typesetting a formula. Lighthouse's
// mobile preset found the lesson's main thread busy for seconds laying out and styling a page
// of 9,634 elements, 5,984 of them KaTeX's output for formulas no one was looking at yet
// (bench/lighthouse.py). An element within NEAR of the window gets its work at once, the rest
// as the reader scrolls towards it; a link to an element (#id, a "Try it" box) scrolls it into
// the window, so it gets its work then. An element the browser does not show (inside a closed
// <details>) gets it when it is shown.

const NEAR = "100% 0px"; // one window's height above and below it
const waiting = new Map(); // element -> the batch function its work belongs to
let observer = null;

function arrived(entries) {
  const batches = new Map(); // batch function -> its elements that came near now, in order
  for (const entry of entries) {
    const batch = waiting.get(entry.target);
    if (!entry.isIntersecting || !batch) continue;
    waiting.delete(entry.target);
    observer.unobserve(entry.target);
    if (!batches.has(batch)) batches.set(batch, []);
    batches.get(batch).push(entry.target);
  }
  for (const [batch, elements] of batches) batch(elements);
}

/**
 * Call batch(elements) with the elements of the list that came near the window, all that
 * came near at the same moment in one call (at once, with all of them, where the browser has
 * no IntersectionObserver). Returns one function per element that cancels its work if it has
 * not run.
 */
export function whenEachNear(elements, batch) {
  if (!globalThis.IntersectionObserver) {
    batch(elements);
    return elements.map(() => () => {});
  }
  observer ??= new IntersectionObserver(arrived, { rootMargin: NEAR });
  const own = (list) => batch(list); // a key of its own, even when batch is shared
  return elements.map((el) => {
    waiting.set(el, own);
    observer.observe(el);
    return () => {
      if (waiting.delete(el)) observer.unobserve(el);
    };
  });
}
