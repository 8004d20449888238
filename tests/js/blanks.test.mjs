// A code question's several blanks as the widget saves and fills them
// (py/livelab/web/widgets/blanks.js): each blank's text saved as one answer that fits the
// saved-progress limit, restored blank by blank (an answer saved for one blank goes into the
// first), and the program filled blank by blank at each blank's indent.
// Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

import { fillProgram, packAnswer, unpackAnswer } from "../../py/livelab/web/widgets/blanks.js";

test("one blank's answer is saved as its own text", () => {
  assert.deepEqual(packAnswer(["x / 2"], 100), { text: "x / 2", cut: false });
  assert.deepEqual(unpackAnswer("x / 2", 1), ["x / 2"]);
});

test("several blanks are saved together and restored each to its own", () => {
  const texts = ["np.mean(x ** 2)", 'return "a"\nb'];
  const { text, cut } = packAnswer(texts, 10_000);
  assert.equal(cut, false);
  assert.deepEqual(unpackAnswer(text, 2), texts);
});

test("several long blanks are cut alike until they fit, and say so", () => {
  const { text, cut } = packAnswer(["a".repeat(8_000), "b\n".repeat(3_000)], 10_000);
  assert.equal(cut, true);
  assert.ok(text.length <= 10_000);
  const [first, second] = unpackAnswer(text, 2);
  assert.ok(first.startsWith("aaa") && second.startsWith("b\nb"));
});

test("an answer saved before the question had several blanks goes into the first", () => {
  assert.deepEqual(unpackAnswer("return x", 3), ["return x", "", ""]);
  assert.deepEqual(unpackAnswer('["only one"]', 2), ['["only one"]', ""]);
});

test("the program is filled blank by blank, several lines at the blank's indent", () => {
  const program = "def f(x):\n    ____\n    return ____ + ____\n";
  const filled = fillProgram(program, "____", ["y = x\nz = y", "z", ""]);
  assert.equal(filled, "def f(x):\n    y = x\n    z = y\n    return z + ____\n");
});
