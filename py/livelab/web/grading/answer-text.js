// Reading a typed numeric answer on the page, exactly as livelab.builder.answer_text reads it in
// Python: the same grammar (numbers, decimal comma, scientific notation, + - * / ^ **,
// parentheses, sqrt √ sin cos exp ln log, pi π e; full-width and Arabic-Indic digits), limits
// and messages. Lists are read by ./answer-vector.js, with this parser. The vectors
// in tests/answer_vectors.json hold both to the same readings and words; read that
// module's docstring for what is accepted and why.
//
// Two things differ from a literal translation, both so the messages match Python's: text
// is measured, stripped and numbers are written as Python does (./python-text.js); and the
// errors Python's math raises (a domain error, an overflow, a complex power) are asked
// about before Math gives NaN or Infinity. Its messages are in the site's language
// (../i18n.js); in English they are Python's, word for word.

import { t } from "../i18n.js";
import { characters, formatG, lstrip, SPACE, strip } from "./python-text.js";
import {
  CONSTANTS,
  FUNCTIONS,
  key,
  MAX_DEPTH,
  MAX_LENGTH,
  NAME,
  NOT_FINITE,
  NUMBER,
  OTHER_DIGIT,
  OTHER_DIGITS,
  quote,
  READABLE,
  typographic,
  unknown,
  Unreadable,
  WHOLE_WORD,
  WORD,
} from "./answer-lexicon.js";

// Re-exported for ./answer-vector.js and ./numeric.js, which read answers through this module.
export { MAX_DEPTH, MAX_LENGTH, quote, typographic, Unreadable } from "./answer-lexicon.js";

const TOKEN = new RegExp(`${SPACE}*(?:${NUMBER}|${NAME}|\\*\\*|[-+*/^()])`, "y");

export const ONE_NUMBER = t("answer.one_number");

/** Refuse a text longer than MAX_LENGTH, with an example of what is asked. */
export function checkLength(text, example = ONE_NUMBER) {
  const length = characters(text);
  if (length > MAX_LENGTH) {
    throw new Unreadable(t("answer.too_long", { length, max: MAX_LENGTH, example }));
  }
}

export class Parser {
  /**
   * offset: characters before text in what the student typed; entry: e.g. "entry 2"
   * (answer.entry in the site's language);
   * spaced: vector entries separated by blank space (readSpaced): a sign after a blank and
   * glued to what follows starts the next entry, as in NumPy's `[ 0.5 -1.5]`; separator:
   * the sign between a vector's entries ("," or ";"), empty for blank space or one number.
   */
  constructor(text, decimalComma, offset = 0, entry = "", { spaced = false, pos = 0, separator = "" } = {}) {
    Object.assign(this, { text, decimalComma, offset, entry, spaced, pos, separator, depth: 0 });
  }

  get subject() {
    return this.entry ? this.entry[0].toUpperCase() + this.entry.slice(1).toLowerCase() : t("answer.the_answer");
  }

  /** A sentence naming the text that could not be read, where it is, and why. */
  fail(why, at = null) {
    const rest = lstrip(this.text.slice(at ?? this.pos));
    const start = this.text.length - rest.length;
    if (!rest) return new Unreadable(t("answer.ends_too_soon", { subject: this.subject, why }));
    const column = this.offset + characters(this.text.slice(0, start)) + 1;
    const said = { text: quote(rest), entry: this.entry, column, why };
    return new Unreadable(this.entry ? t("answer.could_not_read_in", said) : t("answer.could_not_read", said), column);
  }

  notFinite(name) {
    return new Unreadable(t("answer.not_finite", { subject: this.subject, name: quote(name) }));
  }

  finite(value) {
    if (!Number.isFinite(value)) throw new Unreadable(t("answer.too_large", { subject: this.subject }));
    return value;
  }

  /** Parse a part that sits inside another; refuse nesting deeper than MAX_DEPTH. */
  nested(parse) {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) {
      throw new Unreadable(t("answer.too_deep", { subject: this.subject, max: MAX_DEPTH }));
    }
    const value = parse.call(this);
    this.depth -= 1;
    return value;
  }

  match() {
    TOKEN.lastIndex = this.pos;
    return TOKEN.exec(this.text);
  }

  peek() {
    const found = this.match();
    return found ? strip(found[0]) : null;
  }

  take() {
    const found = this.match();
    if (!found) throw this.fail(READABLE);
    this.pos = found.index + found[0].length;
    return strip(found[0]);
  }

  expression() {
    let value = this.term();
    while (["+", "-"].includes(this.peek()) && !this.signedEntry()) {
      const op = this.take();
      const right = this.term();
      value = this.finite(op === "+" ? value + right : value - right);
    }
    return value;
  }

  /** Whether a sign starts the next entry: spaced, after a blank, glued to what follows. */
  signedEntry() {
    const rest = this.text.slice(this.pos);
    if (!this.spaced || !rest || lstrip(rest.slice(0, 1)) !== "") return false;
    const sign = Array.from(lstrip(rest));
    return sign.length > 1 && strip(sign[1]) !== "";
  }

  term() {
    let value = this.unary();
    while (["*", "/"].includes(this.peek())) {
      const op = this.take();
      const right = this.unary();
      if (op === "/" && right === 0) throw new Unreadable(t("answer.divides_by_zero", { subject: this.subject }));
      value = this.finite(op === "*" ? value * right : value / right);
    }
    return value;
  }

  unary() {
    if (["+", "-"].includes(this.peek())) {
      const sign = this.take() === "-" ? -1 : 1;
      return sign * this.nested(this.unary);
    }
    return this.power();
  }

  power() {
    const base = this.atom();
    if (!["^", "**"].includes(this.peek())) return base;
    this.take();
    const exponent = this.nested(this.unary);
    const shown = base < 0 ? `(${formatG(base)})^${formatG(exponent)}` : `${formatG(base)}^${formatG(exponent)}`;
    // Python's float power raises or turns complex where ** gives Infinity or NaN; in its order.
    if (base === 0 && exponent < 0) throw new Unreadable(t("answer.zero_negative_power", { power: shown }));
    if (base < 0 && !Number.isInteger(exponent)) {
      throw new Unreadable(t("answer.negative_fractional_power", { power: shown }));
    }
    const value = base ** exponent;
    if (!Number.isFinite(value)) throw new Unreadable(t("answer.power_too_large", { power: shown }));
    return value;
  }

  atom() {
    const token = this.peek();
    if (token === null) {
      if (!this.entry && lstrip(this.text.slice(this.pos)).startsWith("[")) {
        throw this.fail(t("answer.one_not_a_list"));
      }
      if (OTHER_DIGIT.test(lstrip(this.text.slice(this.pos)))) throw this.fail(OTHER_DIGITS);
      throw this.fail(t("answer.expected_number"));
    }
    if (token === "(") {
      this.take();
      const value = this.nested(this.expression);
      if (this.peek() !== ")") throw this.fail(t("answer.paren_not_closed"));
      this.take();
      return value;
    }
    const start = this.pos;
    if ("0123456789.,".includes(token[0])) return this.number(this.take(), start);
    if (WHOLE_WORD.test(token)) return this.name(this.take(), start);
    throw this.fail(t("answer.expected_number"));
  }

  number(token, start) {
    if (token.includes(",") && !this.decimalComma) {
      throw this.fail(t("answer.point_in_list"), start);
    }
    WORD.lastIndex = this.pos; // a name glued to the number, as in 2e or 2pi
    const word = WORD.exec(this.text);
    if (word) {
      const name = word[0];
      if (NOT_FINITE.includes(key(name))) throw this.notFinite(name);
      if (!CONSTANTS.has(key(name)) && !FUNCTIONS.has(key(name))) throw this.fail(unknown(name));
      if (key(name) === "e" && !token.toLowerCase().includes("e")) {
        throw this.fail(t("answer.e_after_number", { number: token }));
      }
      throw this.fail(t("answer.put_star", { number: token, name }));
    }
    const value = Number(token.replaceAll(",", "."));
    if (!Number.isFinite(value)) {
      throw new Unreadable(t("answer.number_too_large", { number: quote(token) }));
    }
    return value;
  }

  name(token, start) {
    const found = key(token);
    if (NOT_FINITE.includes(found)) throw this.notFinite(token);
    if (CONSTANTS.has(found)) return CONSTANTS.get(found);
    if (!FUNCTIONS.has(found)) throw this.fail(unknown(token), start);
    const argument = this.nested(this.atom); // sqrt(2), sqrt 2 and √2 all read the same
    const name = found === "√" ? "sqrt" : found;
    const { at, defined } = FUNCTIONS.get(found);
    if (!defined(argument)) throw new Unreadable(t("answer.not_defined_at", { name, value: formatG(argument) }));
    const value = at(argument);
    if (!Number.isFinite(value)) {
      throw new Unreadable(t("answer.value_too_large", { name, value: formatG(argument) }));
    }
    return value;
  }

  done() {
    const rest = strip(this.text.slice(this.pos));
    if (rest.startsWith(")")) throw this.fail(t("answer.paren_not_opened"));
    if (rest && this.peek() === null) throw this.fail(OTHER_DIGIT.test(rest) ? OTHER_DIGITS : READABLE);
    if (rest) throw this.fail(this.afterNumber());
  }

  /** Why more text cannot follow a complete number, in the words of what is asked. */
  afterNumber() {
    const token = this.peek() ?? "";
    const known = (name) => CONSTANTS.has(name) || FUNCTIONS.has(name) || NOT_FINITE.includes(name);
    if (WHOLE_WORD.test(token) && !known(key(token))) return unknown(token); // as in "0.84 radians"
    if (this.entry) {
      // a list: the numbers need the list's separator between them
      if (!this.separator) return t("answer.put_blank_or_comma");
      return t("answer.put_separator", { separator: quote(this.separator) });
    }
    if (this.pos < this.text.length && lstrip(this.text.slice(this.pos, this.pos + 1)) === "") {
      return t("answer.second_number"); // "2 3", "0 1.41" or "2, 3"
    }
    return t("answer.join_parts");
  }

  read() {
    if (!strip(this.text)) {
      const subject = this.subject;
      throw new Unreadable(this.entry ? t("answer.entry_empty", { subject }) : t("answer.empty", { subject }));
    }
    const value = this.expression();
    this.done();
    return value;
  }

  /** Entries separated by blank space, each named "entry n" in messages. */
  readSpaced() {
    const values = [];
    for (;;) {
      this.entry = t("answer.entry", { number: values.length + 1 });
      values.push(this.expression());
      const rest = this.text.slice(this.pos);
      if (!strip(rest)) return values;
      if (lstrip(rest.slice(0, 1)) !== "" || [null, ")"].includes(this.peek())) this.done(); // raises
    }
  }
}

/** The value of one number or arithmetic expression; throws Unreadable if it is not one. */
export function readNumber(text, decimalComma = true) {
  checkLength(text);
  return new Parser(typographic(text), decimalComma).read();
}
