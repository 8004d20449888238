// The boot plan: the steps of a Python worker's boot (worker/boot.js), in order, and for each
// the sources it may come from, best first. A source that is missing, or fails its check,
// gives way to the next; the boot report (page/report.js) says for each step which source
// it came from and, when a better one gave way, why. README.md ("The boot plan") says what
// each source buys, measured.
//
// `phases` is what a boot posts with "ready" (worker/boot.js, worker/numpy.js): stepsOf turns
// it into the report's steps.

export const PLAN = [
  {
    step: "interpreter",
    sources: {
      snapshot: "restored from the memory snapshot an earlier visit stored (shared/snapshot.js)",
      fresh: "started the normal way",
    },
  },
  {
    step: "numpy",
    sources: {
      stored: "NumPy's files as an earlier visit stored them, already unzipped (worker/numpy.js)",
      wheel: "the wheel, downloaded, hashed and unzipped in JavaScript (shared/unpack.js)",
      loadPackage: "Pyodide's own pyodide.loadPackage, when its internals are missing",
    },
  },
  {
    step: "bytecode",
    sources: {
      stored: ".pyc files an earlier visit compiled and stored (worker/pycache.js)",
      build: ".pyc files the build made under Node (livelab.builder.bytecode)",
      compile: "none: Python compiles on import; the worker stores them once live",
    },
  },
  {
    step: "package",
    sources: { archive: "livelab and the course's modules, from the build's archive" },
  },
];

const text = (value) => (value === undefined || value === null ? undefined : String(value));

/** Where each step came from: {step: {from, why?, ...detail}} from a boot's phases. */
export function stepsOf(phases) {
  const interpreter = {
    from: phases.snapshot === "restored" ? "snapshot" : "fresh",
    why:
      text(phases.snapshotError) ??
      {
        deferred: "no snapshot stored yet: a helper makes one",
        none: "this browser has no Cache Storage",
      }[phases.snapshot],
  };
  const wheel = phases.wheel;
  const numpy = {
    from: phases.numpyBy === "loadPackage" ? "loadPackage" : wheel === "stored" ? wheel : "wheel",
    why: text(phases.numpyError),
  };
  if (numpy.from === "wheel") Object.assign(numpy, { via: wheel, thread: phases.wheelThread });
  const bytecode = {
    from: phases.pycs > 0 ? phases.pycsFrom : "compile",
    files: phases.pycs ?? 0,
    why: text(phases.pycError ?? phases.bytecodeError),
  };
  const steps = { interpreter, numpy, bytecode, package: { from: "archive" } };
  for (const step of Object.values(steps)) if (step.why === undefined) delete step.why;
  return steps;
}
