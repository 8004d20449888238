// The shape of saved progress, checked at every level in one place. Whatever does not fit
// is dropped (and reported), whatever fits is kept: one odd entry never costs the rest.
//
// {version: 2, pages: {<page key>: {questions: {<id>: entry}, labs: {<id>: {params}}}}}
// A question entry: {kind, answer, verdict, message, attempts, failures, solvedAt, shown}.

export const SCHEMA = 2;
export const ANSWER_LIMIT = 10_000; // characters of one saved answer

const isPlain = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value) => Number.isInteger(value) && value >= 0;
const VERDICTS = new Set(["correct", "wrong", "error", "too_slow"]);

const QUESTION_FIELDS = {
  kind: (v) => typeof v === "string",
  answer: (v) => typeof v === "string" && v.length <= ANSWER_LIMIT,
  verdict: (v) => VERDICTS.has(v),
  message: (v) => typeof v === "string" && v.length <= ANSWER_LIMIT,
  attempts: isCount,
  failures: isCount,
  solvedAt: (v) => isCount(v) && v > 0,
  shown: (v) => typeof v === "boolean",
};

const isParamValue = (v) =>
  ["number", "string", "boolean"].includes(typeof v) ||
  (Array.isArray(v) && v.length <= 64 && v.every((x) => typeof x === "number"));

/** A question entry with only the fields that fit; dropped counts what was left out. */
function cleanQuestion(entry, report) {
  if (!isPlain(entry)) return report(null);
  const clean = {};
  for (const [name, value] of Object.entries(entry)) {
    if (QUESTION_FIELDS[name]?.(value)) clean[name] = value;
    else report();
  }
  return clean;
}

function cleanLab(entry, report) {
  if (!isPlain(entry) || !isPlain(entry.params)) return report(null);
  const params = {};
  for (const [name, value] of Object.entries(entry.params)) {
    if (isParamValue(value)) params[name] = value;
    else report();
  }
  return { params };
}

const SECTIONS = { questions: cleanQuestion, labs: cleanLab };

/** Version 1 had no shown answers: a correct verdict there was a solve. */
function migrate(data) {
  for (const page of Object.values(data.pages ?? {})) {
    for (const entry of Object.values(isPlain(page) && isPlain(page.questions) ? page.questions : {})) {
      if (isPlain(entry) && entry.verdict === "correct" && !entry.solvedAt) {
        entry.solvedAt = isCount(entry.attempts) && entry.attempts > 0 ? entry.attempts : 1;
      }
    }
  }
  return { ...data, version: SCHEMA };
}

/**
 * Saved data as the store can use it: {data, dropped}. data is null when nothing of it can
 * be read (not an object, another version); dropped counts the parts left out.
 */
export function cleanProgress(raw) {
  if (!isPlain(raw) || ![1, SCHEMA].includes(raw.version) || !isPlain(raw.pages)) {
    return { data: null, dropped: 1 };
  }
  const source = raw.version === 1 ? migrate(structuredClone(raw)) : raw;
  let dropped = 0;
  const report = (value) => {
    dropped += 1;
    return value;
  };
  const pages = {};
  for (const [key, page] of Object.entries(source.pages)) {
    if (!isPlain(page)) {
      report();
      continue;
    }
    const cleanPage = {};
    for (const [section, items] of Object.entries(page)) {
      const cleanItem = SECTIONS[section];
      if (!cleanItem || !isPlain(items)) {
        report();
        continue;
      }
      cleanPage[section] = {};
      for (const [id, entry] of Object.entries(items)) {
        const clean = cleanItem(entry, report);
        if (clean) cleanPage[section][id] = clean;
      }
    }
    pages[key] = cleanPage;
  }
  return { data: { version: SCHEMA, pages }, dropped };
}
