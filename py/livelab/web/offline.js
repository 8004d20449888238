// Offline use: registers the site's service worker (sw.js at the site root, written by the
// build; livelab/web/sw.js says what it does) with the whole site as its scope.
//
// It registers once Python is live and the page is quiet (runtime/page/quiet.js: its install
// downloads and hashes every file, which must not slow a student's first clicks). By then the
// page's own downloads, the runtime above all, are in the browser's HTTP cache, so the
// worker's precache revalidates them instead of downloading them again, and it never competes
// with the first boot for bandwidth. On later visits the call changes nothing: the browser
// itself checks sw.js for a new version on each page load, and a new version waits until no
// page of the old one is open. On a first visit the worker claims this page once it is active
// (sw.js).

import { runtime } from "./runtime/page/client.js";
import { whenQuiet } from "./runtime/page/quiet.js";

const ROOT = new URL("../../", import.meta.url); // this module is <root>/assets/livelab/offline.js

function register() {
  // updateViaCache "none": an update check asks the server for the Workbox scripts too, so a
  // new sw.js never runs with older Workbox builds that a host let the browser keep for a while.
  const options = { scope: ROOT.pathname, updateViaCache: "none" };
  navigator.serviceWorker.register(new URL("sw.js", ROOT), options).catch((err) => {
    // The site still works online; only offline use and isolation on plain hosts are lost.
    console.warn(`The site cannot be used offline here: ${err.message}`);
  });
}

function registerWhenLive(event) {
  if (event.detail.state !== "ready") return;
  runtime.removeEventListener("status", registerWhenLive);
  whenQuiet(register);
}

if ("serviceWorker" in navigator) {
  if (runtime.state === "ready") whenQuiet(register);
  else runtime.addEventListener("status", registerWhenLive);
}
