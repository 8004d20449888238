// Inlined into every page by livelab.builder.early, after the script that holds search back.
// The service worker checks each file it serves against the hash the build listed (sw.js); a
// script or style sheet of this page that has no good copy and cannot be downloaded again is
// answered with an error, and the service worker sends the page the sentence that names it.
// A failed script leaves the page without the code that would show a message, so this one,
// inside the page itself, shows it: once per file, at the top of the page, as an alert.
(() => {
  const container = navigator.serviceWorker;
  if (!container || "__livelabUnavailable" in self) return;
  self.__livelabUnavailable = true;
  const shown = new Set();
  container.addEventListener("message", ({ data }) => {
    if (!data || data.type !== "livelab-unavailable" || shown.has(data.path)) return;
    shown.add(data.path);
    const note = document.createElement("p");
    note.setAttribute("role", "alert");
    note.className = "livelab-unavailable";
    note.style.cssText = "margin:0;padding:0.75em 1em;background:#fff3cd;color:#000";
    note.textContent = String(data.sentence);
    const place = () => document.body.prepend(note);
    if (document.body) place();
    else document.addEventListener("DOMContentLoaded", place, { once: true });
  });
  container.startMessages();
})();
