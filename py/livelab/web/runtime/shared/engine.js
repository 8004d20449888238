// Which engine runs this page or worker, where that changes how Python starts. Chromium is the
// one engine with navigator.userAgentData; it is also the one engine where the wheel's helper
// worker works well (numpy.js HELPER_WORKS). A module of its own, without side effects, so
// that the page can import it as well as the workers (start.js wraps WebAssembly's functions).
export const CHROMIUM = Boolean(globalThis.navigator?.userAgentData);
