// How the client (client.js) stops a request: a waiting one is dropped; a running one is
// interrupted in place through the interrupt buffer when the page is cross-origin isolated,
// else, or when Python does not obey in time, its worker is ended and a fresh one started.
// Methods of Runtime, kept here so client.js stays readable.

import { RuntimeError, stopError } from "../shared/stops.js";

const STOP_GRACE_MS = 1_000;
// Python took the stop (it set the interrupt buffer back to 0) but has not reported it within
// STOP_GRACE_MS, as on a loaded machine: it gets this much longer.
const REPORT_GRACE_MS = 4_000;

export const stopping = {
  /** Stop a request: drop it if it waits, end it if it runs. Later requests still run. */
  stop(id) {
    const waiting = this.queue.findIndex((r) => r.id === id);
    if (waiting >= 0) {
      const [request] = this.queue.splice(waiting, 1);
      request.reject(new RuntimeError(stopError("stopped", request.timeoutMs)));
    } else if (this.running && this.running.id === id) {
      this.stopRequest(this.running, "stopped");
    }
  },

  stopRequest(request, reason) {
    if (request.stopReason) return; // stopping already: the first reason is the one reported
    request.stopReason = reason;
    if (this.interrupt) {
      this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next check
      request.graceTimer = setTimeout(() => this.unlessObeying(request), STOP_GRACE_MS);
    } else {
      this.respawn(request);
    }
  },

  /** No report of the stop yet: end the worker, unless Python took the signal; then it gets
   * REPORT_GRACE_MS more (code that catches KeyboardInterrupt and goes on is ended then). */
  unlessObeying(request) {
    if (this.running !== request) return;
    if (this.interrupt[0] !== 0) {
      this.respawn(request);
      return;
    }
    request.graceTimer = setTimeout(() => this.respawn(request), REPORT_GRACE_MS);
  },

  /** End the worker mid-run; the stopped request fails, the waiting ones go to the new worker. */
  respawn(request) {
    if (this.running !== request) return;
    this.finish();
    this.worker.terminate();
    clearTimeout(this.bootTimer);
    request.reject(new RuntimeError(stopError(request.stopReason, request.timeoutMs)));
    this.start();
  },
};
