// Why a run was stopped, as the page says it (runtime/shared/stops.js explainStop), and the memory
// limit every worker that runs student code sets before Pyodide loads (runtime/worker/memory-cap.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { capMemory, MEMORY_LIMIT } from "../../py/livelab/web/runtime/worker/memory-cap.js";
import { explainStop } from "../../py/livelab/web/runtime/shared/stops.js";

const stop = (fields) => ({ type: "KeyboardInterrupt", message: "stopped", deep: false, asleep: false, ...fields });
const timedOut = { stopReason: "timeout", timeoutMs: 5_000 };

test("a time limit reached in time.sleep says the code was sleeping, not looping", () => {
  const error = explainStop(timedOut, stop({ asleep: true }));
  assert.equal(error.type, "Timeout");
  assert.match(error.message, /^Stopped: the code ran longer than 5 s and was sleeping \(time\.sleep\)/);
  assert.doesNotMatch(error.message, /loop/);
});

test("a time limit reached in a loop still points at the loop, and deep at the recursion", () => {
  assert.match(explainStop(timedOut, stop({})).message, /Look for a loop that never ends\.$/);
  assert.match(explainStop(timedOut, stop({ deep: true })).message, /deep in a recursion/);
});

test("a stop the student pressed says so, asleep or not", () => {
  const pressed = { stopReason: "stopped", timeoutMs: 5_000 };
  assert.equal(explainStop(pressed, stop({ asleep: true })).message, "Stopped: you stopped the run.");
});

test("memory grows up to the limit and no further, and the cap cannot be taken off", () => {
  capMemory(); // importing memory-cap.js capped this scope already: a second call changes nothing
  const memory = new WebAssembly.Memory({ initial: 1 });
  memory.grow(MEMORY_LIMIT / 65_536 - 1); // exactly the limit
  assert.equal(memory.buffer.byteLength, MEMORY_LIMIT);
  assert.throws(() => memory.grow(1), { name: "MemoryLimit" });
  assert.equal(memory.buffer.byteLength, MEMORY_LIMIT);
  const proto = WebAssembly.Memory.prototype;
  assert.throws(() => Object.defineProperty(proto, "grow", { value: () => 0 }), TypeError);
  assert.throws(() => new WebAssembly.Memory({ initial: 1 }).grow(MEMORY_LIMIT / 65_536), {
    name: "MemoryLimit",
  });
});
