// Offline use: registers the site's service worker (sw.js at the site root, written by the
// build; labs/sw.js says what it does) with the whole site as its scope.
//
// On a first visit it registers once Python is live: by then the page's own downloads, the
// runtime above all, are in the browser's HTTP cache, so the worker's precache revalidates
// them instead of downloading them again, and it never competes with the first boot for
// bandwidth. A page the worker already controls registers at once, which checks for an update.

import { runtime } from "./runtime/client.js";

const ROOT = new URL("../../", import.meta.url); // this module is <root>/assets/livelab/offline.js

function register() {
  navigator.serviceWorker.register(new URL("sw.js", ROOT), { scope: ROOT.pathname }).catch((err) => {
    // The site still works online; only offline use and isolation on plain hosts are lost.
    console.warn(`The site cannot be used offline here: ${err.message}`);
  });
}

function registerWhenLive(event) {
  if (event.detail.state !== "ready") return;
  runtime.removeEventListener("status", registerWhenLive);
  register();
}

if ("serviceWorker" in navigator) {
  if (navigator.serviceWorker.controller || runtime.state === "ready") register();
  else runtime.addEventListener("status", registerWhenLive);
}
