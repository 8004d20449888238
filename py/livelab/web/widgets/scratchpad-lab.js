// A lab's "Open in scratchpad" button (button[data-scratch], built into the markup of every lab
// that has scratch code): Python writes the lab's current numbers as code (Lab.scratch, the
// same state the lab's view shows) and the scratchpad (scratchpad.js) takes it from the
// `livelab:scratchpad` event. The browser never writes that code itself.

import { t } from "../i18n.js";

/** Wire the lab's button; returns the function that unwires it. */
export function bindScratch(el, runtime, { readParams, status }) {
  const button = el.querySelector("button[data-scratch]");
  if (!button) return () => {};
  const open = async () => {
    try {
      const code = await runtime.call("lab_scratch", { kind: el.dataset.labKind, params: readParams(el) });
      const title = el.querySelector(".livelab-lab__title")?.textContent.split(":")[0].trim();
      const detail = { code, title, anchor: el };
      document.dispatchEvent(new CustomEvent("livelab:scratchpad", { detail }));
    } catch (err) {
      // Settings Python refuses are already explained where the lab shows its messages.
      if (err.type !== "RuntimeUnavailable" && err.type !== "ValueError") {
        status.error(t("scratchpad.open_failed", { message: err.message }));
      }
    }
  };
  button.disabled = false;
  button.addEventListener("click", open);
  return () => button.removeEventListener("click", open);
}
