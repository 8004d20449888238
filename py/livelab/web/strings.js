// The sentences of this site's widgets (livelab.i18n): written by the build.
export default {
 "@code": "en",
 "@language": "English",
 "grader.blank_empty": "The blank is still empty: type your code in place of {blank}.",
 "grader.blank_one_line": "This blank takes a single line: write it without line breaks.",
 "hints.label": "Hint {number} of {total}.",
 "hints.next": "Hint {number} of {total}",
 "hints.none_left": "No more hints",
 "progress.with_hints": {
  "one": "({count} with hints)",
  "other": "({count} with hints)"
 }
};
