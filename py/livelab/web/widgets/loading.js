// One loading line for the whole page while Python starts: what it is doing and how much is
// downloaded ("Starting Python: downloading 6.2 of 9.4 MB"). It floats at the top of the
// window on pages that need Python (taking no room, so nothing moves when it goes) and goes
// away once Python is live. The runtime reports progress
// as "progress" events {phase, loaded, total}; bytes are shown when it knows them.

import { language, t } from "../i18n.js";

const PHASES = {
  download: t("loading.download"),
  python: t("loading.python"),
  numpy: t("loading.numpy"),
  course: t("loading.course"),
};

const DECIMAL_SIGN = (1.5).toLocaleString(language).replace(/\d/g, "") || ".";
const mb = (bytes) => (bytes / 1_000_000).toFixed(1).replace(".", DECIMAL_SIGN);

function describe(detail) {
  const phase = PHASES[detail?.phase] ?? t("loading.getting_ready");
  if (detail?.phase === "download" && detail.total > 0) {
    return t("loading.downloaded", { phase, loaded: mb(detail.loaded), total: mb(detail.total) });
  }
  return t("loading.phase", { phase });
}

/** The loading line, from the boot report (runtime/page/report.js) and its updates. */
export function showLoading(runtime, needsPython) {
  document.querySelector(".livelab-loading")?.remove();
  const starting = () => runtime.report().state === "starting";
  if (!needsPython || !starting()) return;
  const bar = document.createElement("div");
  bar.className = "livelab-loading";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  const meter = document.createElement("progress");
  meter.setAttribute("aria-label", t("loading.meter"));
  bar.append(text, meter);
  const show = (detail) => {
    text.textContent = describe(detail);
    if (detail?.total > 0) {
      meter.max = detail.total;
      meter.value = detail.loaded;
    } else {
      meter.removeAttribute("value"); // an indeterminate bar between downloads
    }
  };
  show(runtime.report().progress);
  const onProgress = () => show(runtime.report().progress);
  const onStatus = () => {
    if (starting()) return;
    bar.remove();
    runtime.removeEventListener("progress", onProgress);
    runtime.removeEventListener("status", onStatus);
  };
  runtime.addEventListener("progress", onProgress);
  runtime.addEventListener("status", onStatus);
  document.body.append(bar); // fixed in place by the stylesheet: it takes no room in the page
}
