// The sentences a student sees, in the site's language (livelab.i18n). The build writes this
// site's table into strings.js (English with the language's own sentences over it); the copy
// in the package is English, for a page served without a build and for the Node tests.
import strings from "./strings.js";

export const language = strings["@code"] ?? "en";
const plurals = new Intl.PluralRules(language);

// The sentence `key` with each {name} filled from params; a sentence that depends on a count
// ({one, other}) takes the form params.count asks for.
export function t(key, params = {}) {
  let value = strings[key];
  if (value === undefined) throw new Error(`livelab: no sentence ${key}`);
  if (typeof value === "object") value = value[plurals.select(params.count)] ?? value.other;
  return value.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
