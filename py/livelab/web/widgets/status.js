// The status line every widget carries: says whether Python is starting, live or failed,
// and offers a "Retry" button when it failed. Text only, never HTML.

import { t } from "../i18n.js";
import { sentence } from "./verdict.js";

const TEXT = {
  // Short: the page's loading line at the top says how far Python has got.
  starting: t("status.starting"),
  ready: t("status.ready"),
};

export function bindStatus(el, runtime) {
  const line = el.querySelector("[data-status]");
  // A lab's line was built saying Python is loading (livelab.labs.markup): keep its wording.
  const early = line.querySelector("[data-starting]")?.textContent;
  if (early) line.dataset.starting = early;
  const show = () => {
    line.replaceChildren();
    if (runtime.state !== "failed") {
      line.textContent = runtime.state === "starting" ? (line.dataset.starting ?? TEXT.starting) : TEXT[runtime.state];
      return;
    }
    line.append(`${t("status.failed", { problem: sentence(runtime.message) })} `);
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "livelab-button";
    retry.textContent = t("status.retry");
    retry.addEventListener("click", () => runtime.retry());
    line.append(retry);
  };
  show();
  runtime.addEventListener("status", show);
  return {
    error(message) {
      line.textContent = message;
    },
    ok: show,
    unbind: () => runtime.removeEventListener("status", show),
  };
}
