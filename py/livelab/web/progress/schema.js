// The shape of saved progress, checked at every level in one place. Whatever does not fit
// is dropped (and reported), whatever fits is kept: one odd entry never costs the rest.
//
// {version: 2, pages: {<page key>: {questions: {<id>: entry}, labs: {<id>: {params, touchedAt}}}}}
// A question entry: {kind, answer, verdict, message, attempts, failures, solvedAt, shown, hints,
// hintsAtSolve, touchedAt}. hints: how many of its hints were asked for; hintsAtSolve: how
// many had been when it was first solved (0: solved without help). touchedAt (ms since 1970) is when
// the student last worked on it, for home's "Continue where you left off"; data saved before
// it existed simply has none.
//
// Saved text is the student's browser's, so no name in it is trusted: a name is looked up
// only among the schema's own (Maps, never an object whose prototype answers "toString" or
// "constructor"), and whatever is kept goes into objects without a prototype, so a key such
// as "__proto__" is a key like any other and never reaches Object.prototype.

export const SCHEMA = 2;
export const ANSWER_LIMIT = 10_000; // characters of one saved answer
// A question's or a lab's id, as the builder allows it (livelab.builder.fences.ID_PATTERN).
export const ID_PATTERN = /^[a-z][a-z0-9-]*$/;

/** An object with no prototype: every key set on it is its own, "__proto__" included. */
export const map = () => Object.create(null);
const own = (object, name) => (Object.hasOwn(object, name) ? object[name] : undefined);
const isPlain = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value) => Number.isInteger(value) && value >= 0;
const VERDICTS = new Set(["correct", "wrong", "error", "too_slow"]);
const isTime = (v) => isCount(v) && v > 0;

const QUESTION_FIELDS = new Map([
  ["kind", (v) => typeof v === "string"],
  ["answer", (v) => typeof v === "string" && v.length <= ANSWER_LIMIT],
  ["verdict", (v) => VERDICTS.has(v)],
  ["message", (v) => typeof v === "string" && v.length <= ANSWER_LIMIT],
  ["attempts", isCount],
  ["failures", isCount],
  ["solvedAt", (v) => isCount(v) && v > 0],
  ["shown", (v) => typeof v === "boolean"],
  ["hints", isCount],
  ["hintsAtSolve", isCount],
  ["touchedAt", isTime],
]);

const isParamValue = (v) =>
  ["number", "string", "boolean"].includes(typeof v) ||
  (Array.isArray(v) && v.length <= 64 && v.every((x) => typeof x === "number"));

/** A question entry with only the fields that fit; report() counts each one left out. */
function cleanQuestion(entry, report) {
  if (!isPlain(entry)) return report(null);
  const clean = map();
  for (const [name, value] of Object.entries(entry)) {
    if (QUESTION_FIELDS.get(name)?.(value)) clean[name] = value;
    else report();
  }
  return clean;
}

/** A lab entry, {params: {<name>: value}, touchedAt?}: params that fit; any other field is left out. */
function cleanLab(entry, report) {
  const saved = isPlain(entry) ? own(entry, "params") : undefined;
  if (!isPlain(saved)) return report(null);
  const touchedAt = own(entry, "touchedAt");
  for (const name of Object.keys(entry)) {
    if (name !== "params" && !(name === "touchedAt" && isTime(touchedAt))) report();
  }
  const params = map();
  for (const [name, value] of Object.entries(saved)) {
    if (isParamValue(value)) params[name] = value;
    else report();
  }
  const clean = map();
  clean.params = params;
  if (isTime(touchedAt)) clean.touchedAt = touchedAt;
  return clean;
}

const SECTIONS = new Map([
  ["questions", cleanQuestion],
  ["labs", cleanLab],
]);

/** A page's sections, each a map of item id -> cleaned entry. */
function cleanPage(page, report) {
  if (!isPlain(page)) return report(null);
  const clean = map();
  for (const [section, items] of Object.entries(page)) {
    const cleanItem = SECTIONS.get(section);
    if (!cleanItem || !isPlain(items)) {
      report();
      continue;
    }
    clean[section] = map();
    for (const [id, entry] of Object.entries(items)) {
      const item = ID_PATTERN.test(id) ? cleanItem(entry, report) : report(null);
      if (item) clean[section][id] = item;
    }
  }
  return clean;
}

/** Version 1 had no shown answers: a correct verdict there was a solve. */
function migrate(pages) {
  for (const page of Object.values(pages)) {
    for (const entry of Object.values(page.questions ?? {})) {
      if (entry.verdict === "correct" && !entry.solvedAt) {
        entry.solvedAt = entry.attempts > 0 ? entry.attempts : 1;
      }
    }
  }
}

/** An empty store, as a first visit or a reset leaves it. */
export function emptyProgress() {
  const data = map();
  data.version = SCHEMA;
  data.pages = map();
  return data;
}

/**
 * Saved data as the store can use it: {data, dropped}. data is null when nothing of it can
 * be read (not an object, another version); dropped counts the parts left out.
 */
export function cleanProgress(raw) {
  const version = isPlain(raw) ? own(raw, "version") : undefined;
  const pages = isPlain(raw) ? own(raw, "pages") : undefined;
  if (![1, SCHEMA].includes(version) || !isPlain(pages)) return { data: null, dropped: 1 };
  let dropped = Object.keys(raw).filter((name) => name !== "version" && name !== "pages").length;
  const report = (value) => {
    dropped += 1;
    return value;
  };
  const data = emptyProgress();
  for (const [key, page] of Object.entries(pages)) {
    const clean = cleanPage(page, report);
    if (clean) data.pages[key] = clean;
  }
  if (version === 1) migrate(data.pages);
  return { data, dropped };
}
