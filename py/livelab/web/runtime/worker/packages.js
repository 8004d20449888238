// The extra Pyodide packages a course serves (manifest.packages: what code imports -> the
// package, livelab.builder.packages), loaded into the scratch Python the first time code it is
// asked to run imports one of them: a page whose code plots nothing downloads none of them.
// loadPackage reads each file from the site's own Pyodide folder (precached by the service
// worker) and checks it against pyodide-lock.json's sha256.

import { t } from "../../i18n.js";

const loaded = new Set();

/** The served packages code imports that are not loaded yet: [[import name, package]]. */
function wanted(pyodide, served, code) {
  let found;
  try {
    const finder = pyodide.pyimport("pyodide.code");
    try {
      const names = finder.find_imports(code);
      found = names.toJs();
      names.destroy();
    } finally {
      finder.destroy();
    }
  } catch {
    return []; // code that does not parse: its run says why
  }
  return found.filter((name) => served[name] && !loaded.has(name)).map((name) => [name, served[name]]);
}

/**
 * Load what code imports of the served packages (served: import name -> package), after
 * telling loading() which; resolves to the import names now loaded
 * ([] when none), rejects with an Error that says which package did not load.
 */
export async function loadImported(pyodide, served, code, loading) {
  const fresh = wanted(pyodide, served, code);
  if (fresh.length === 0) return [];
  const packages = [...new Set(fresh.map(([, pkg]) => pkg))];
  loading(packages);
  const failed = [];
  await pyodide.loadPackage(packages, {
    messageCallback: () => {},
    errorCallback: (message) => failed.push(message),
  });
  if (failed.length) {
    const named = { packages: packages.join(", "), errors: failed.join(" ") };
    throw new Error(t("runtime.packages_failed", named));
  }
  const names = fresh.map(([name]) => name);
  for (const name of names) loaded.add(name);
  return names;
}
