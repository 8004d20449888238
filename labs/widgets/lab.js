// A lab widget: controls in, view out. The markup (built by livelab.markup in Python) marks
// everything: input[data-param] are the controls, [data-step] buttons move several controls
// at once, [data-text] and [data-attrs] elements show the view that Python returns.

import { coalesce } from "../runtime/coalesce.js";
import { bindStatus } from "./status.js";

function readParams(el, inputs) {
  const params = JSON.parse(el.dataset.params);
  for (const input of inputs) params[input.dataset.param] = Number(input.value);
  return params;
}

function applyView(el, view) {
  for (const node of el.querySelectorAll("[data-text]")) {
    const value = view.text?.[node.dataset.text];
    if (value !== undefined && node.textContent !== value) node.textContent = value;
  }
  for (const node of el.querySelectorAll("[data-attrs]")) {
    for (const [name, value] of Object.entries(view.attrs?.[node.dataset.attrs] ?? {})) {
      node.setAttribute(name, value);
    }
  }
}

function stepTargets(el, button) {
  return button.dataset.step
    .split(/\s+/)
    .map((name) => el.querySelector(`input[data-param="${CSS.escape(name)}"]`));
}

function refreshSteppers(el, steppers) {
  for (const button of steppers) {
    const by = Number(button.dataset.by);
    button.disabled = stepTargets(el, button).some((input) => Number(input.value) + by > Number(input.max));
  }
}

export function mount(el, runtime) {
  const kind = el.dataset.labKind;
  const inputs = [...el.querySelectorAll("input[data-param]")];
  const steppers = [...el.querySelectorAll("[data-step]")];
  const status = bindStatus(el, runtime);
  let mounted = true;

  const update = coalesce(
    (params) => runtime.call("lab", { kind, params }),
    (reply) => {
      if (!mounted) return;
      applyView(el, reply.view);
      status.ok();
      el.dispatchEvent(new CustomEvent("livelab:view", { bubbles: true }));
    },
    (err) => {
      // A runtime that failed to start is already explained, with a Retry, on the status line.
      if (mounted && err.type !== "RuntimeUnavailable") {
        status.error(`Could not update the lab: ${err.message}`);
      }
    },
  );
  const onInput = () => {
    refreshSteppers(el, steppers);
    update(readParams(el, inputs));
  };
  const onStep = (event) => {
    const button = event.currentTarget;
    for (const input of stepTargets(el, button)) {
      input.value = String(Number(input.value) + Number(button.dataset.by));
    }
    onInput();
  };

  for (const input of inputs) {
    input.disabled = false;
    input.addEventListener("input", onInput);
  }
  for (const button of steppers) button.addEventListener("click", onStep);
  // Whenever a (re)started worker becomes ready, bring the view up to date from it.
  const onStatus = (event) => event.detail.state === "ready" && onInput();
  runtime.addEventListener("status", onStatus);
  onInput();

  return () => {
    mounted = false;
    status.unbind();
    runtime.removeEventListener("status", onStatus);
    for (const input of inputs) input.removeEventListener("input", onInput);
    for (const button of steppers) button.removeEventListener("click", onStep);
  };
}
