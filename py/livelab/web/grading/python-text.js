// Text as Python sees it, for messages that must read the same on the page as in Python:
// blank space is str.isspace's set (JavaScript's \s adds U+FEFF and lacks U+001C-U+001F and
// U+0085), len() counts code points (an emoji is one character, not two UTF-16 units), and
// format(x, "g") writes numbers: 6 significant digits, trailing zeros dropped, exponent form
// below 1e-4 or from 1e6 on with at least two exponent digits. Python rounds the exact binary
// value half to even; toPrecision rounds half up (1234565 gives 1.23457e+6, Python
// 1.23456e+06), so the digits come from the exact value in BigInt arithmetic instead.

export const SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const LEADING_SPACE = new RegExp(`^${SPACE}+`);
const TRAILING_SPACE = new RegExp(`${SPACE}+$`);

/** str.lstrip() and str.strip() with no argument. */
export const lstrip = (text) => text.replace(LEADING_SPACE, "");
export const strip = (text) => lstrip(text).replace(TRAILING_SPACE, "");

/** len(text): characters outside the Basic Multilingual Plane count once. */
export function characters(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

const DIGITS = 6;
const LOW = 10n ** BigInt(DIGITS - 1);
const HIGH = 10n ** BigInt(DIGITS);

/** A finite positive double as an exact fraction [numerator, denominator] of BigInts. */
function exactFraction(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n); // subnormals have no hidden 1
  const shift = Math.max(biased, 1) - 1075;
  return shift >= 0 ? [mantissa << BigInt(shift), 1n] : [mantissa, 1n << BigInt(-shift)];
}

/** x > 0 to DIGITS significant digits, half to even: [the digits, the power of ten of the first]. */
function significant(x) {
  const [numerator, denominator] = exactFraction(x);
  let exponent = Math.floor(Math.log10(x)); // a first guess, corrected below when log10 rounds
  for (;;) {
    const shift = BigInt(DIGITS - 1 - exponent);
    const [top, bottom] = shift >= 0n ? [numerator * 10n ** shift, denominator] : [numerator, denominator * 10n ** -shift];
    let digits = top / bottom;
    if (digits < LOW) exponent -= 1;
    else if (digits >= HIGH) exponent += 1;
    else {
      const twice = 2n * (top % bottom);
      if (twice > bottom || (twice === bottom && digits % 2n === 1n)) digits += 1n;
      return digits === HIGH ? [LOW.toString(), exponent + 1] : [digits.toString(), exponent];
    }
  }
}

/** Drops the zeros after the last significant decimal, and the point if nothing follows it. */
const trimZeros = (text) => text.replace(/0+$/, "").replace(/\.$/, "");

/** format(x, "g") as Python writes it, for a finite x. */
export function formatG(x) {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const [digits, exponent] = significant(Math.abs(x));
  if (exponent < -4 || exponent >= DIGITS) {
    const power = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${trimZeros(`${digits[0]}.${digits.slice(1)}`)}e${exponent < 0 ? "-" : "+"}${power}`;
  }
  const fixed =
    exponent >= 0
      ? `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`
      : `0.${"0".repeat(-exponent - 1)}${digits}`;
  return sign + trimZeros(fixed);
}
