// Lab views the worker has computed in this tab, by lab kind and params.
//
// A lab's view is a pure function of its params (the same params give the same numbers and
// shapes; labs that draw random numbers seed them from their params), so a view Python has
// made once can be shown again without asking it: after an instant navigation back to a
// page, its labs come up at the positions they had, and dragging a slider back over values
// already seen costs nothing. Only views of this tab's live worker are kept, and one is used
// only while Python is live: a page whose Python failed shows the failure, not old numbers.
// A view already asked for and not yet answered is not asked for twice: a student who leaves
// a page and comes back before its labs were answered waits for the same replies.

const LIMIT = 200; // views kept, the least recently used dropped first

const views = new Map(); // JSON of [kind, params] -> the worker's reply
const asked = new Map(); // JSON of [kind, params] -> the worker's reply, while it is awaited

function keyOf(kind, params) {
  return JSON.stringify([kind, params]);
}

/**
 * The lab's view for these params: from this tab's memory when Python made it before and is
 * live now, else from the worker (and then remembered). distance: how far the lab is from the
 * viewport (runtime/page/client.js answers the nearest first).
 */
export async function labView(runtime, kind, params, distance = null) {
  const key = keyOf(kind, params);
  const known = views.get(key);
  if (known !== undefined && runtime.state === "ready") {
    views.delete(key); // most recently used goes last
    views.set(key, known);
    return known;
  }
  if (asked.has(key)) return asked.get(key);
  const reply = runtime.call("lab", { kind, params }, { distance });
  asked.set(key, reply);
  try {
    views.set(key, await reply);
  } finally {
    asked.delete(key);
  }
  if (views.size > LIMIT) views.delete(views.keys().next().value);
  return reply;
}
