// Find elements by ARIA role and accessible name, the way Playwright's get_by_role does, for
// the engines driven without Playwright (Firefox over WebDriver BiDi, WebKit over WebDriver).
// A subset of the ARIA rules, enough for the course's pages: explicit role attributes, the
// implicit roles of the elements the widgets use, and names from aria-labelledby, aria-label,
// <label>, content (for roles named by their content) and title. test_roles.py runs it against
// Playwright's own get_by_role on Chromium, so it cannot drift from what the other tests see.
// The file is one function expression: (query) => [elements], query = {role, name, exact,
// pattern, flags, within, enabled}; `within` is a CSS selector the search is limited to;
// `enabled` skips disabled controls (an action waits for its control to be enabled).
(query) => {
  const TEXT_TYPES = ["", "text", "email", "tel", "url", "password"];
  const implicitRole = (el) => {
    const tag = el.localName;
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "input") {
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "radio" || type === "checkbox") return type;
      if (type === "search") return "searchbox";
      if (TEXT_TYPES.includes(type)) return el.hasAttribute("list") ? "combobox" : "textbox";
      return null;
    }
    const byTag = {
      button: "button", textarea: "textbox", output: "status", nav: "navigation",
      main: "main", form: "form", table: "table", ul: "list", ol: "list", li: "listitem",
      dialog: "dialog", progress: "progressbar", fieldset: "group", details: "group",
    };
    if (tag in byTag) return byTag[tag];
    if (tag === "a" || tag === "area") return el.hasAttribute("href") ? "link" : null;
    if (/^h[1-6]$/.test(tag)) return "heading";
    if (tag === "img") return el.getAttribute("alt") === "" ? "presentation" : "img";
    if (tag === "svg") return "img";
    if (tag === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    return null;
  };
  const roleOf = (el) => {
    const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
    return explicit || implicitRole(el);
  };
  // Roles whose name may come from their content (ARIA's "name from: contents").
  const FROM_CONTENT = new Set([
    "button", "link", "heading", "radio", "checkbox", "option", "tab", "menuitem",
    "cell", "columnheader", "rowheader", "row", "switch", "treeitem", "tooltip",
  ]);
  const hidden = (el) => {
    if (el.closest("[hidden], [aria-hidden='true'], [inert]")) return true;
    if (typeof el.checkVisibility === "function") {
      return !el.checkVisibility({ visibilityProperty: true });
    }
    const style = getComputedStyle(el);
    return style.display === "none" || style.visibility !== "visible";
  };
  const textOf = (node, skip) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE || node === skip) return "";
    const el = node;
    if (el.getAttribute("aria-hidden") === "true") return "";
    if (["script", "style", "template"].includes(el.localName)) return "";
    if (getComputedStyle(el).display === "none") return "";
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return ` ${label} `;
    if (el.localName === "img") return ` ${el.getAttribute("alt") || ""} `;
    if (el.localName === "input" || el.localName === "textarea") return ` ${el.value} `;
    const inner = [...el.childNodes].map((child) => textOf(child, skip)).join("");
    const block = getComputedStyle(el).display !== "inline";
    return block ? ` ${inner} ` : inner;
  };
  const squash = (text) => text.replace(/\s+/g, " ").trim();
  const nameOf = (el, role) => {
    const ids = (el.getAttribute("aria-labelledby") || "").trim();
    if (ids) {
      const parts = ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean);
      const text = squash(parts.map((part) => textOf(part, null)).join(" "));
      if (text) return text;
    }
    const label = squash(el.getAttribute("aria-label") || "");
    if (label) return label;
    if (el.labels && el.labels.length) {
      const text = squash([...el.labels].map((l) => textOf(l, el)).join(" "));
      if (text) return text;
    }
    if (FROM_CONTENT.has(role)) {
      const text = squash([...el.childNodes].map((child) => textOf(child, null)).join(""));
      if (text) return text;
    }
    const legend = el.localName === "fieldset" && el.querySelector(":scope > legend");
    if (legend) return squash(textOf(legend, null));
    if (el.localName === "img" && el.getAttribute("alt")) return squash(el.getAttribute("alt"));
    if (el.localName === "input" && ["button", "submit", "reset"].includes(el.type)) {
      return squash(el.value);
    }
    return squash(el.getAttribute("title") || el.getAttribute("placeholder") || "");
  };
  const matches = (name) => {
    if (query.pattern !== undefined && query.pattern !== null) {
      return new RegExp(query.pattern, query.flags || "").test(name);
    }
    if (query.name === undefined || query.name === null) return true;
    const wanted = squash(query.name);
    return query.exact ? name === wanted : name.toLowerCase().includes(wanted.toLowerCase());
  };
  const scopes = query.within ? [...document.querySelectorAll(query.within)] : [document];
  const found = [];
  for (const scope of scopes) {
    for (const el of scope.querySelectorAll("*")) {
      if (roleOf(el) !== query.role || hidden(el) || found.includes(el)) continue;
      if (query.enabled && (el.disabled || el.closest("fieldset:disabled"))) continue;
      if (matches(nameOf(el, query.role))) found.push(el);
    }
  }
  if (query.names) return found.map((el) => nameOf(el, query.role));
  return found;
}
