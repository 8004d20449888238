// The order in which one student sees a choice question's options: shuffled, and the same
// for that student on every visit (a seed kept in localStorage beside the saved progress),
// so nobody learns "the right one is the second" and a saved answer still marks its option.
// Options keep their author's index as their value: grading and saved answers never depend
// on the order shown. Without storage the seed lasts for the visit.

const ORDER_KEY = (root) => `livelab-order:${root}`;
let visitSeed = null;

/** This student's seed for the site at `root`, made once and then kept. */
export function studentSeed(root, storage = globalThis.localStorage) {
  try {
    const kept = Number(storage.getItem(ORDER_KEY(root)));
    if (Number.isInteger(kept) && kept > 0) return kept;
    const seed = 1 + Math.floor(Math.random() * 0x7ffffffe);
    storage.setItem(ORDER_KEY(root), String(seed));
    return seed;
  } catch {
    visitSeed ??= 1 + Math.floor(Math.random() * 0x7ffffffe);
    return visitSeed;
  }
}

/** A 32-bit hash of a text (FNV-1a), mixed with the seed. */
function hash(text, seed) {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The order [0 .. count-1] this seed gives the question `id` (Fisher–Yates). */
export function optionOrder(count, id, seed) {
  const random = generator(hash(id, seed));
  const order = [...Array(count).keys()];
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
