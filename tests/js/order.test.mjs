// Choice options in a student's own order (py/livelab/web/progress/order.js): a permutation,
// stable for one student, different between students and between questions, and still a
// permutation when storage refuses. Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

const { optionOrder, studentSeed } = await import("../../py/livelab/web/progress/order.js");

const memory = () => {
  const stored = new Map();
  return {
    getItem: (key) => (stored.has(key) ? stored.get(key) : null),
    setItem: (key, value) => stored.set(key, String(value)),
    stored,
  };
};

test("every order is a permutation of the options", () => {
  for (let seed = 1; seed < 200; seed++) {
    for (const count of [2, 3, 4, 5]) {
      const order = optionOrder(count, `q${seed % 7}`, seed);
      assert.deepEqual([...order].sort(), [...Array(count).keys()]);
    }
  }
});

test("one student sees one order on every visit; the seed is kept per site root", () => {
  const storage = memory();
  const seed = studentSeed("/course/", storage);
  assert.equal(studentSeed("/course/", storage), seed);
  assert.deepEqual(optionOrder(4, "q1", seed), optionOrder(4, "q1", studentSeed("/course/", storage)));
  assert.deepEqual([...storage.stored.keys()], ["livelab-order:/course/"]);
});

test("across students each option stands first about equally often", () => {
  const first = [0, 0, 0, 0];
  for (let seed = 1; seed <= 4000; seed++) first[optionOrder(4, "q6", seed)[0]] += 1;
  for (const count of first) assert.ok(count > 850 && count < 1150, `first places: ${first}`);
});

test("one student's questions are not all shuffled alike", () => {
  const orders = new Set(["q1", "q2", "q3", "q4", "q5", "q6"].map((id) => optionOrder(3, id, 12345).join()));
  assert.ok(orders.size > 1);
});

test("odd or refused storage still gives an order, the same for the whole visit", () => {
  const refusing = {
    getItem() {
      throw new Error("SecurityError");
    },
    setItem() {
      throw new Error("SecurityError");
    },
  };
  const seed = studentSeed("/", refusing);
  assert.ok(Number.isInteger(seed) && seed > 0);
  assert.equal(studentSeed("/", refusing), seed);
  const odd = memory();
  odd.setItem("livelab-order:/", "not a number");
  assert.ok(studentSeed("/", odd) > 0);
  assert.notEqual(odd.getItem("livelab-order:/"), "not a number");
});
