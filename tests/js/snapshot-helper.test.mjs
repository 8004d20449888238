// When the first visit's snapshot helper may start (runtime/page/snapshot-helper.js
// underServiceWorker): once the service worker controls the page, or once it will not soon.
// It must never wait forever nor reject, whatever register() gave.
import { test, mock } from "node:test";
import assert from "node:assert/strict";

import {
  CONTROL_WAIT_MS,
  underServiceWorker,
} from "../../py/livelab/web/runtime/page/snapshot-helper.js";

/** A navigator.serviceWorker stand-in: `controller`, and "controllerchange" to dispatch. */
function container(controller = null) {
  const stub = new EventTarget();
  stub.controller = controller;
  Object.defineProperty(globalThis, "navigator", {
    value: { serviceWorker: stub },
    configurable: true,
  });
  return stub;
}

/** A ServiceWorker stand-in in `state`; move(state) fires its "statechange". */
function worker(state) {
  const stub = new EventTarget();
  stub.state = state;
  stub.move = (next) => {
    stub.state = next;
    stub.dispatchEvent(new Event("statechange"));
  };
  return stub;
}

/** Whether `promise` has settled after the pending callbacks ran. */
async function settled(promise) {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

test("it waits while a new version installs, and goes on once it claimed the page", async () => {
  const sw = container();
  const installing = worker("installing");
  const waiting = underServiceWorker(Promise.resolve({ installing }));
  installing.move("installed");
  installing.move("activating");
  assert.equal(await settled(waiting), false);
  sw.controller = installing; // claim() sets the controller, then activation ends
  sw.dispatchEvent(new Event("controllerchange"));
  assert.equal(await settled(waiting), true);
});

test("a worker that fails to install, or activates without claiming, ends the wait", async () => {
  container();
  for (const end of ["redundant", "activated"]) {
    const installing = worker("installing");
    const waiting = underServiceWorker(Promise.resolve({ installing }));
    assert.equal(await settled(waiting), false);
    installing.move(end);
    assert.equal(await settled(waiting), true, end);
  }
});

test("a page already controlled, or with nothing installing, does not wait", async () => {
  container(worker("activated"));
  const update = Promise.resolve({ installing: worker("installing") });
  assert.equal(await settled(underServiceWorker(update)), true);
  container();
  const current = Promise.resolve({ active: worker("activated") });
  assert.equal(await settled(underServiceWorker(current)), true);
});

test("a failed or blocked registration does not wait and does not reject", async () => {
  container();
  for (const registering of [Promise.reject(new Error("blocked")), Promise.resolve(undefined)]) {
    const waiting = underServiceWorker(registering);
    assert.equal(await settled(waiting), true);
    assert.equal(await waiting, undefined);
  }
});

test("a worker that never gets anywhere is waited for CONTROL_WAIT_MS at most", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    container();
    const waiting = underServiceWorker(Promise.resolve({ installing: worker("installing") }));
    mock.timers.tick(CONTROL_WAIT_MS - 1);
    assert.equal(await settled(waiting), false);
    mock.timers.tick(1);
    assert.equal(await settled(waiting), true);
  } finally {
    mock.timers.reset();
  }
});
