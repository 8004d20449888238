// The scratchpad's markup (scratchpad.js wires it up): the header button that opens it, the
// dialog with its editor box, buttons, status line, output log and figures, all inside an
// aside landmark of its own placed just before Material's header.

import { t } from "../i18n.js";

const PANEL_ID = "livelab-scratchpad";

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function button(label, extra = {}) {
  return element("button", { type: "button", className: "livelab-button", textContent: label, ...extra });
}

/** The scratchpad's elements, in the page: {toggle, close, buttons, status, output, figures,
 * editorBox, panel, region}. shortcut is the key that opens it, announced on the button. */
export function panelParts(shortcut) {
  const parts = {};
  parts.toggle = button(t("scratchpad.title"), {
    className: "livelab-button livelab-scratchpad-toggle",
    title: t("scratchpad.toggle_title", { shortcut }),
  });
  parts.toggle.setAttribute("aria-expanded", "false");
  parts.toggle.setAttribute("aria-controls", PANEL_ID);
  parts.toggle.setAttribute("aria-keyshortcuts", shortcut);
  parts.close = button(t("scratchpad.close"), { title: t("scratchpad.close_label") });
  parts.close.setAttribute("aria-label", t("scratchpad.close_label"));
  parts.buttons = {
    run: button(t("scratchpad.run"), { title: t("scratchpad.run_title") }),
    stop: button(t("scratchpad.stop"), { title: t("scratchpad.stop_title"), disabled: true }),
    clear: button(t("scratchpad.clear"), { title: t("scratchpad.clear_title") }),
  };
  parts.status = element("p", { className: "livelab-scratchpad__status" });
  parts.status.setAttribute("role", "status");
  parts.output = element("pre", { className: "livelab-scratchpad__output", hidden: true });
  parts.output.setAttribute("role", "log");
  parts.output.setAttribute("aria-label", t("scratchpad.output"));
  parts.output.tabIndex = 0; // long output scrolls: the keyboard can reach it
  parts.figures = element("div", { className: "livelab-figures", hidden: true });
  parts.editorBox = element("div", { className: "livelab-scratchpad__editor" });
  const title = element("h2", { id: `${PANEL_ID}-title`, textContent: t("scratchpad.title") });
  parts.panel = element(
    "section",
    { id: PANEL_ID, className: "livelab-scratchpad", hidden: true },
    element("div", { className: "livelab-scratchpad__head" }, title, parts.close),
    element("p", { className: "livelab-scratchpad__hint", textContent: t("scratchpad.hint") }),
    parts.editorBox,
    element("div", { className: "livelab-buttons" }, ...Object.values(parts.buttons)),
    parts.status,
    parts.output,
    parts.figures,
  );
  parts.panel.setAttribute("role", "dialog");
  parts.panel.setAttribute("aria-labelledby", title.id);
  // A landmark of its own: the button sits outside Material's content, which it outlives.
  const region = element("aside", { className: "livelab-scratchpad-region" }, parts.toggle, parts.panel);
  region.setAttribute("aria-label", t("scratchpad.region"));
  // Early in the tab order, not after the footer's many links: just before Material's
  // header (which keeps its place across instant navigation), whose bar the button sits on
  // (livelab.css). Not after it: on a phone, focus on the header's search field opens the
  // search over the header, and the button gives way to it, out of a keyboard's reach.
  const header = document.querySelector("body > .md-header");
  if (header) header.before(region);
  else document.body.append(region);
  parts.region = region;
  return parts;
}
