// Pyodide 0.27.7 and its NumPy, loaded the plain way, with the files npm and PyPI ship
// (bench/startup.py install_bare puts them beside this file).
const indexURL = new URL("pyodide/", import.meta.url).href;
const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
const pyodide = await loadPyodide({ indexURL, enableRunUntilComplete: false });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
postMessage(pyodide.runPython("import numpy as np; float(np.ones(4).sum())"));
