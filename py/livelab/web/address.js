// The one address of a page, whatever address it was reached at. The rule is kept here once
// and used in three places:
// - the first script of every page (livelab.builder.addresses inlines this function there)
//   replaces the address in the address bar with this one before anything is loaded, so the
//   page's relative links and files, its saved progress and its service worker scope are the
//   same as at the page's own address;
// - the service worker (the build puts this function in front of sw.js) answers a navigation
//   to another address of a precached page with a redirect to this one, online and offline;
// - saved progress (progress/store.js) files a page under this address.
//
// Repeated slashes are one (`//level-19/modern-blocks/` and `level-19//modern-blocks/` are
// `/level-19/modern-blocks/`: a browser resolves `../../assets/` from the first to `//assets/`
// and from the second to `/level-19/assets/`), and a folder's `index.html` is the folder.

/** The path a page is served and saved under, for the path of any address that reaches it. */
export function canonicalPath(pathname) {
  return pathname.replace(/\/{2,}/g, "/").replace(/\/index\.html$/, "/");
}
