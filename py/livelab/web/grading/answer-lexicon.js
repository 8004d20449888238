// What a typed numeric answer may hold on the page, as livelab.builder.answer_lexicon says in
// Python: its signs, digits and names, its limits, and the error that says what could not be read.
// ./answer-text.js reads an answer with these. This module imports only the site's sentences
// (../i18n.js, which every widget imports too), so splitting it out of ./answer-text.js made
// the page's chain of imports no longer; the token pattern and the length check, which need
// ./python-text.js, stay in ./answer-text.js. The messages are in the site's language; in
// English they are word for word Python's (tests/answer_vectors.json holds the two to it).

import { t } from "../i18n.js";

export const MAX_LENGTH = 200;
export const MAX_DEPTH = 20;

const defined = () => true;
// Maps, not object literals: a typed "constructor" or "toString" must be an unknown name.
export const FUNCTIONS = new Map([
  ["sqrt", { at: Math.sqrt, defined: (x) => x >= 0 }],
  ["√", { at: Math.sqrt, defined: (x) => x >= 0 }],
  ["sin", { at: Math.sin, defined }],
  ["cos", { at: Math.cos, defined }],
  ["exp", { at: Math.exp, defined }],
  ["ln", { at: Math.log, defined: (x) => x > 0 }],
  ["log", { at: Math.log, defined: (x) => x > 0 }],
]);
export const CONSTANTS = new Map([
  ["pi", Math.PI],
  ["π", Math.PI],
  ["e", Math.E],
]);
export const NOT_FINITE = ["nan", "inf", "infinity", "∞"];
// Full-width forms (East Asian keyboards) and Arabic-Indic digits with their decimal point
// and list signs are read as the ASCII they stand for, one character for one.
const FULL_WIDTH = "０１２３４５６７８９．，；＋－（）［］＊／＾";
const ARABIC = "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫،؛";
const SIGNS = new Map([
  ["−", "-"],
  ["–", "-"],
  ["×", "*"],
  ["·", "*"],
  ["÷", "/"],
  ...Array.from(FULL_WIDTH, (char, i) => [char, "0123456789.,;+-()[]*/^"[i]]),
  ...Array.from(ARABIC, (char, i) => [char, ("0123456789".repeat(2) + ".,;")[i]]),
]);
const SIGN = new RegExp(`[${[...SIGNS.keys()].join("")}]`, "gu");
export const NUMBER = "(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?";
export const NAME = "[A-Za-zπ∞]+|√";
export const WORD = new RegExp(NAME, "y");
export const WHOLE_WORD = new RegExp(`^(?:${NAME})$`);
export const READABLE = t("answer.readable");
export const OTHER_DIGITS = t("answer.other_digits");
export const OTHER_DIGIT = /^\p{Nd}/u; // a digit of any script (Python's str.isdecimal)

/** The text is not a number or arithmetic the parser reads; column is 1-based, or null. */
export class Unreadable extends Error {
  constructor(message, column = null) {
    super(message);
    this.name = "Unreadable";
    this.column = column;
  }
}

/** Text echoed back in a message, cut short so a pasted page is never repeated. */
export function quote(text, limit = 12) {
  const chars = Array.from(text);
  return t("answer.quoted", { text: chars.length > limit ? `${chars.slice(0, limit).join("")}…` : text });
}

export const key = (name) => name.toLowerCase(); // case does not matter (E is e), π stays π

/** Why a typed name cannot be read, with the names that can. */
export const unknown = (name) => t("answer.unknown_name", { name: quote(name) });

export const typographic = (text) => text.replace(SIGN, (sign) => SIGNS.get(sign));
