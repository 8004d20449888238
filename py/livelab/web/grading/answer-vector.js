// Reading a typed vector answer on the page, exactly as livelab.builder.answer_vector reads it in
// Python: numbers separated by commas, semicolons or blank space, each read by
// ./answer-text.js. Read that module's docstring for when a comma is a decimal comma; the
// shared vectors (tests/answer_vectors.json) hold both to the same readings and words.
// Indexes here are UTF-16 units; columns in messages count characters as Python does.
// Messages are in the site's language (../i18n.js); in English, Python's word for word.

import { t } from "../i18n.js";
import { characters, lstrip, strip } from "./python-text.js";
import { checkLength, Parser, quote, typographic, Unreadable } from "./answer-text.js";

/** A comma glued between two digits: a decimal comma, or a list written without blanks. */
export const DIGIT_COMMA = /[0-9],[0-9]/;
export const DECIMAL_EXAMPLE = "0,5; 1,41";
const BLANK = (char) => lstrip(char) === "";
const A_LIST = t("answer.a_list");

/** Start and end of the text inside one pair of brackets around the whole answer. */
function outerBrackets(text) {
  const lead = text.length - lstrip(text).length;
  const inner = strip(text);
  if (inner.length < 2 || !["[]", "()"].includes(inner[0] + inner[inner.length - 1])) return [0, text.length];
  let depth = 0;
  for (const char of inner.slice(0, -1)) {
    depth += { "(": 1, "[": 1, ")": -1, "]": -1 }[char] ?? 0;
    if (depth === 0) return [0, text.length]; // as in "(1), (2)": the first bracket closes early
  }
  return [lead + 1, lead + inner.length - 1];
}

/** Where the commas, semicolons and blanks outside parentheses are, between start and end. */
function signs(text, start, end) {
  const found = [];
  let depth = 0;
  for (let i = start; i < end; i += 1) {
    const char = text[i];
    depth += { "(": 1, ")": -1 }[char] ?? 0;
    if (depth === 0 && (",;".includes(char) || BLANK(char))) found.push([i, BLANK(char) ? "blank" : char]);
  }
  return found;
}

const glued = (text, i) => i > 0 && DIGIT_COMMA.test(text.slice(i - 1, i + 2));
const column = (text, i) => characters(text.slice(0, i)) + 1;

/** A comma that is not a decimal comma in a list separated by semicolons. */
function afterSemicolons(text, i) {
  const at = column(text, i);
  const why = t("answer.semicolon_list");
  return new Unreadable(t("answer.could_not_read", { text: quote(strip(text.slice(i))), column: at, why }), at);
}

/** A comma glued between digits in a list whose other commas are followed by a blank. */
function unclear(text, i) {
  let first = i;
  let last = i + 1;
  while (first > 0 && "0123456789.".includes(text[first - 1])) first -= 1;
  while (last < text.length && "0123456789".includes(text[last])) last += 1;
  const number = text.slice(first, last);
  const at = column(text, first);
  const why = t("answer.unclear_comma", { number, decimal: number.replace(",", "."), example: DECIMAL_EXAMPLE });
  return new Unreadable(t("answer.could_not_read", { text: quote(strip(text.slice(first))), column: at, why }), at);
}

function entries(text, start, end, cuts, decimalComma) {
  const values = [];
  const separator = decimalComma ? ";" : ",";
  for (const cut of [...cuts, end]) {
    const part = text.slice(start, cut);
    const offset = characters(text.slice(0, start));
    const entry = t("answer.entry", { number: values.length + 1 });
    values.push(new Parser(part, decimalComma, offset, entry, { separator }).read());
    start = cut + 1;
  }
  return values;
}

/** The numbers of a typed list; throws Unreadable (saying where and why) if it is not one. */
export function readVector(text) {
  checkLength(text, A_LIST);
  const typed = typographic(text);
  if (strip(typed).slice(0, 1) === "[" && strip(typed).slice(-1) !== "]") {
    throw new Unreadable(t("answer.unclosed_bracket"));
  }
  const [start, end] = outerBrackets(typed);
  if (!strip(typed.slice(start, end))) throw new Unreadable(t("answer.empty", { subject: t("answer.the_answer") }));
  const found = signs(typed, start, end);
  const semicolons = found.filter(([, sign]) => sign === ";").map(([i]) => i);
  const commas = found.filter(([, sign]) => sign === ",").map(([i]) => i);
  const gluedCommas = commas.filter((i) => glued(typed, i));
  const body = typed.slice(start, end);
  const first = start + body.length - lstrip(body).length;
  const last = start + strip(body).length + (body.length - lstrip(body).length);
  const blanks = found.some(([i, sign]) => sign === "blank" && first < i && i < last);
  if (semicolons.length) {
    for (const i of commas) if (!glued(typed, i)) throw afterSemicolons(typed, i);
    return entries(typed, start, end, semicolons, true);
  }
  if (commas.length && gluedCommas.length && gluedCommas.length < commas.length) {
    throw unclear(typed, gluedCommas[0]);
  }
  if (commas.length && !(gluedCommas.length === commas.length && blanks)) {
    return entries(typed, start, end, commas, false);
  }
  return new Parser(typed.slice(0, end), true, 0, "", { spaced: true, pos: start }).readSpaced();
}
