// The worker that a page's first lines started (livelab.builder.early writes that inline script
// into every page that loads runtime/page/client.js), for client.js to adopt.

/**
 * The worker the page's first lines started for this address (livelab.builder.early), with the
 * messages it sent so far, or null. Either way the inline script starts no worker after this
 * in this document.
 */
export function adoptEarlyWorker(href) {
  const early = globalThis.__livelabEarly;
  globalThis.__livelabEarly = null;
  if (!early?.worker) return null;
  if (early.url === href) return early;
  early.worker.terminate();
  return null;
}
