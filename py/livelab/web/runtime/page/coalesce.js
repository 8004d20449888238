// Latest-wins request coalescing: at most one request in flight; while it runs, newer inputs
// overwrite each other and only the newest is sent next. A drag of 200 steps therefore never
// builds a queue, and the display always converges on the last position.

export function coalesce(send, onValue, onError) {
  let pending = null;
  let busy = false;

  async function drain() {
    busy = true;
    while (pending !== null) {
      const input = pending;
      pending = null;
      try {
        onValue(await send(input), input);
      } catch (err) {
        onError(err, input);
      }
    }
    busy = false;
  }

  return (input) => {
    pending = input;
    if (!busy) drain();
  };
}
