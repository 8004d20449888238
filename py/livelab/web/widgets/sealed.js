// What a question keeps back until the student earns it: the build seals it into the
// container's data-sealed attribute (base64 of JSON), so search, reader mode and print
// never see it. Opened here, put into the page only when a widget reveals it.

export function unseal(el) {
  const bytes = Uint8Array.from(atob(el.dataset.sealed ?? ""), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** Put the author's build-time markup (reasons, explanations) into a slot, math typeset. */
export async function showMarkup(slot, markup) {
  slot.innerHTML = markup;
  slot.hidden = false;
  if (slot.querySelector(".arithmatex")) {
    const { typeset } = await import("../math.js");
    typeset(slot);
  }
}
