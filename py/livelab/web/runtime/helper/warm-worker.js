// A worker that boots Python once as a page load with a stored snapshot does, then is ended
// by the client (snapshot-helper.js runWarmup): started on a first visit in Chromium, after
// the snapshot helper stored its snapshot.
//
// Chromium keeps the compiled code of a streamed WebAssembly file once per file and profile,
// taken while that first compile runs: the functions optimized by then. Taken during the
// helper's full start (as before), that code missed much of what a reload runs, so every
// reload optimized it again in the background, on machines with two cores at the expense of
// Python's own start. The helper now compiles from bytes (keeps nothing), and this boot, which
// restores the snapshot, takes NumPy's stored files and imports the course like a reload,
// is the one whose code Chromium keeps.

import "../worker/worker.js";
