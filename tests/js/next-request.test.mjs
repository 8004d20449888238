// The order of waiting requests (runtime/page/next-request.js): the one nearest the viewport when
// its turn comes, requests without a distance counted as in view, ties in arrival order.
import { test } from "node:test";
import assert from "node:assert/strict";

import { nextIndex } from "../../py/livelab/web/runtime/page/next-request.js";

const at = (px) => ({ distance: () => px });

test("the request nearest the viewport goes first", () => {
  assert.equal(nextIndex([at(900), at(40), at(300)]), 1);
});

test("a request without a distance counts as in view and ties keep arrival order", () => {
  assert.equal(nextIndex([at(500), {}, at(0)]), 1);
  assert.equal(nextIndex([at(0), at(0)]), 0);
  assert.equal(nextIndex([{}, {}]), 0);
});

test("the distance is read when the turn comes, not when the request was made", () => {
  let scrolled = 1000;
  const queue = [at(200), { distance: () => scrolled }];
  assert.equal(nextIndex(queue), 0);
  scrolled = 0;
  assert.equal(nextIndex(queue), 1);
});
