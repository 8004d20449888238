// The memory snapshot without its zero pages. About 30 % of Pyodide's memory at snapshot time
// is 4 KB pages of zeros, most in two long runs (the heap's unused middle and its tail). A
// reload reads the snapshot from Cache Storage before the interpreter can start, and that read
// (with its hash check) is the longest wait of a warm boot, so the stored copy leaves them out.
//
// Layout (little-endian u32 words): MAGIC, the full length in bytes, the number of zero runs,
// then each run as [first page, page count], then every byte outside the runs, in order.

export const PAGE = 4096;
const MAGIC = 0x5a504731; // "ZPG1"

/** Whether the PAGE bytes of words (a Uint32Array) from word `at` are all zero. */
function zeroPage(words, at) {
  for (let i = at; i < at + PAGE / 4; i++) if (words[i] !== 0) return false;
  return true;
}

/** bytes (a Uint8Array) with its whole zero pages left out, as laid out above. */
export function squeeze(bytes) {
  const fullPages = Math.floor(bytes.byteLength / PAGE);
  const aligned = bytes.byteOffset % 4 === 0;
  const source = aligned ? bytes : bytes.slice();
  const words = new Uint32Array(source.buffer, source.byteOffset, (fullPages * PAGE) / 4);
  const runs = [];
  for (let page = 0; page < fullPages; page++) {
    if (!zeroPage(words, (page * PAGE) / 4)) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1]++;
    else runs.push([page, 1]);
  }
  const zeroBytes = runs.reduce((sum, [, count]) => sum + count * PAGE, 0);
  const header = 3 + 2 * runs.length;
  const out = new Uint8Array(header * 4 + bytes.byteLength - zeroBytes);
  const head = new DataView(out.buffer);
  [MAGIC, bytes.byteLength, runs.length, ...runs.flat()].forEach((word, i) =>
    head.setUint32(i * 4, word, true),
  );
  let from = 0;
  let at = header * 4;
  for (const [page, count] of [...runs, [bytes.byteLength / PAGE, 0]]) {
    const end = Math.min(page * PAGE, bytes.byteLength);
    out.set(bytes.subarray(from, end), at);
    at += end - from;
    from = end + count * PAGE;
  }
  return out;
}

/** The bytes that squeeze left out pages of; throws if packed is not laid out that way. */
export function expand(packed) {
  const head = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const word = (i) => head.getUint32(i * 4, true);
  if (packed.byteLength < 12 || word(0) !== MAGIC) throw new Error("not a squeezed snapshot");
  const length = word(1);
  const runCount = word(2);
  const out = new Uint8Array(length);
  let from = (3 + 2 * runCount) * 4;
  let at = 0;
  for (let i = 0; i <= runCount; i++) {
    const [page, count] = i < runCount ? [word(3 + 2 * i), word(4 + 2 * i)] : [length / PAGE, 0];
    const end = Math.min(page * PAGE, length);
    if (end < at || from + end - at > packed.byteLength) throw new Error("squeezed runs overlap");
    out.set(packed.subarray(from, from + end - at), at);
    from += end - at;
    at = end + count * PAGE;
  }
  if (from !== packed.byteLength || at < length) throw new Error("squeezed length is wrong");
  return out;
}
