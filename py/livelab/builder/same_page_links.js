// Inlined into every page by livelab.builder.early, so it runs before mkdocs-material's bundle.
// A link to a place on the page being shown (a "Try it" box's lab, the progress summary's
// questions, the table of contents) is left to the browser, which scrolls there at once and
// adds the history entry. Material's instant navigation would take it instead, and on the
// first such link of a visit it fetches the page and shows it again (its stream of addresses
// starts empty, so it does not know the page it started on): every lab and question mounts a
// second time, the scroll lands before the maths above the target is typeset, and in a busy
// tab the fetch was seen not to finish at all, leaving the reader where they clicked.
// The popstate the browser fires for such a step, and for Back and Forward between two places
// of one page, is kept from Material as well; the place is restored here. livelab.js says which
// page is shown after each of Material's page changes (`shown`).
(() => {
  if ("__livelabSamePage" in self) return;
  const state = { shown: location.pathname + location.search };
  self.__livelabSamePage = state;
  const onShownPage = (url) =>
    url.origin === location.origin && url.pathname + url.search === state.shown;

  addEventListener(
    "click",
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target.closest?.("a[href]");
      if (!link || link.target || link.hasAttribute("download")) return;
      const url = new URL(link.href, document.baseURI);
      if (!url.hash || !onShownPage(url)) return;
      // Where the reader was, for Back (in the shape Material keeps it: a viewport offset).
      history.replaceState({ x: scrollX, y: scrollY }, "");
      event.stopPropagation();
    },
    true,
  );

  addEventListener(
    "popstate",
    (event) => {
      if (!onShownPage(new URL(location.href))) return; // another page: Material's to show
      event.stopImmediatePropagation();
      const id = decodeURIComponent(location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (typeof event.state?.y === "number") scrollTo(event.state.x || 0, event.state.y);
      else if (target) target.scrollIntoView();
    },
    true,
  );
})();
