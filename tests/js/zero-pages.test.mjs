// The snapshot's stored layout (runtime/shared/zero-pages.js): whole zero pages are left out and put
// back, every other byte comes back where it was, and bytes in another layout are refused.
import { test } from "node:test";
import assert from "node:assert/strict";

import { expand, PAGE, squeeze } from "../../py/livelab/web/runtime/shared/zero-pages.js";

/** A memory of `pages` pages (plus `tail` bytes) where the pages in `zero` are all zero. */
function memory(pages, zero, tail = 0) {
  const bytes = new Uint8Array(pages * PAGE + tail);
  for (let i = 0; i < bytes.length; i++) bytes[i] = zero.has(Math.floor(i / PAGE)) ? 0 : (i % 251) + 1;
  return bytes;
}

test("zero pages are left out and put back", () => {
  const bytes = memory(12, new Set([0, 3, 4, 5, 11]), 144);
  const packed = squeeze(bytes);
  assert.ok(packed.byteLength < bytes.byteLength - 5 * PAGE + 64);
  assert.deepEqual(expand(packed), bytes);
});

test("a page with one non-zero byte is kept", () => {
  const bytes = new Uint8Array(4 * PAGE);
  bytes[2 * PAGE + PAGE - 1] = 7;
  const back = expand(squeeze(bytes));
  assert.deepEqual(back, bytes);
  assert.ok(squeeze(bytes).byteLength < 2 * PAGE);
});

test("memories with no zero page, only zero pages, or no whole page come back whole", () => {
  for (const bytes of [memory(3, new Set()), memory(5, new Set([0, 1, 2, 3, 4])), memory(0, new Set(), 100)]) {
    assert.deepEqual(expand(squeeze(bytes)), bytes);
  }
});

test("a view that starts at an odd offset squeezes the same", () => {
  const bytes = memory(6, new Set([1, 2]), 9);
  const buffer = new Uint8Array(bytes.byteLength + 1);
  buffer.set(bytes, 1);
  assert.deepEqual(expand(squeeze(buffer.subarray(1))), bytes);
});

test("bytes in another layout are refused", () => {
  const packed = squeeze(memory(8, new Set([2, 3, 6])));
  assert.throws(() => expand(memory(2, new Set())), /not a squeezed snapshot/);
  assert.throws(() => expand(packed.subarray(0, packed.byteLength - 1)), /length|overlap/);
  const longer = new Uint8Array(packed.byteLength + 4);
  longer.set(packed);
  assert.throws(() => expand(longer), /length/);
});
