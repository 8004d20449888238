// The lab-view memory (runtime/page/views.js): a view Python made is shown again for the same
// params while Python is live, and asked for again otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";

import { labView } from "../../py/livelab/web/runtime/page/views.js";

function fakeRuntime() {
  const runtime = {
    state: "ready",
    calls: [],
    async call(name, args) {
      runtime.calls.push([name, args]);
      return { view: { text: { score: `${args.kind}:${JSON.stringify(args.params)}` } } };
    },
  };
  return runtime;
}

test("the same params are answered from memory, other params by Python", async () => {
  const runtime = fakeRuntime();
  const first = await labView(runtime, "memo-a", { q_pos: 3 });
  const again = await labView(runtime, "memo-a", { q_pos: 3 });
  assert.deepEqual(again, first);
  assert.equal(runtime.calls.length, 1);
  const other = await labView(runtime, "memo-a", { q_pos: 4 });
  assert.equal(other.view.text.score, 'memo-a:{"q_pos":4}');
  await labView(runtime, "memo-b", { q_pos: 3 }); // another lab with the same params
  assert.equal(runtime.calls.length, 3);
});

test("nothing is shown from memory while Python is not live", async () => {
  const runtime = fakeRuntime();
  await labView(runtime, "memo-c", { x: 1 });
  runtime.state = "failed";
  await labView(runtime, "memo-c", { x: 1 });
  assert.equal(runtime.calls.length, 2);
});

test("an error is not remembered", async () => {
  const runtime = fakeRuntime();
  let fail = true;
  const call = runtime.call;
  runtime.call = async (name, args) => {
    if (fail) throw new Error("refused");
    return call(name, args);
  };
  await assert.rejects(labView(runtime, "memo-d", { x: 1 }));
  fail = false;
  const reply = await labView(runtime, "memo-d", { x: 1 });
  assert.equal(reply.view.text.score, 'memo-d:{"x":1}');
});

test("the least recently used view is dropped past the limit", async () => {
  const runtime = fakeRuntime();
  await labView(runtime, "memo-e", { x: 0 });
  for (let i = 1; i <= 250; i++) await labView(runtime, "memo-f", { x: i });
  const before = runtime.calls.length;
  await labView(runtime, "memo-e", { x: 0 });
  assert.equal(runtime.calls.length, before + 1);
  await labView(runtime, "memo-f", { x: 250 });
  assert.equal(runtime.calls.length, before + 1);
});

test("a view asked for and not yet answered is asked for once", async () => {
  const runtime = fakeRuntime();
  const call = runtime.call;
  let answer;
  const gate = new Promise((resolve) => (answer = resolve));
  runtime.call = async (name, args) => {
    await gate;
    return call(name, args);
  };
  const first = labView(runtime, "memo-g", { x: 1 });
  const second = labView(runtime, "memo-g", { x: 1 }); // the page came back before the reply
  answer();
  assert.deepEqual(await second, await first);
  assert.equal(runtime.calls.length, 1);
  await labView(runtime, "memo-g", { x: 1 });
  assert.equal(runtime.calls.length, 1);
});
