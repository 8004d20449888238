// The sentences of this site's widgets (livelab.i18n): written by the build.
export default {
 "@code": "en",
 "@language": "English",
 "code.blank_count": {
  "one": "This program has {count} blank: send its text.",
  "other": "This program has {count} blanks: send the text of each."
 },
 "code.blank_empty": "The blank is still empty: type your code in place of {blank}.",
 "code.blank_empty_of": "Blank {number} is still empty: type your code in place of {blank}.",
 "code.blank_label": "blank: {what}",
 "code.blank_label_of": "blank {number} of {total}: {what}",
 "code.blank_one_line": "This blank takes a single line: write it without line breaks.",
 "code.blank_one_line_of": "Blank {number} takes a single line: write it without line breaks.",
 "code.check": "Check",
 "code.confirm_cancel": "Cancel",
 "code.confirm_reveal": "Show the reference answer? Your own text stays in the field, and this question will count as shown, not solved.",
 "code.confirm_yes": "Yes, show it",
 "code.hint": "Hint",
 "code.lines_note": "Several lines. Enter keeps the indent, Tab indents; to leave the field with Tab, press Escape first. Ctrl+Enter checks.",
 "code.run": "Run",
 "code.show_answer": "Show answer",
 "code.stop": "Stop",
 "code.where_around": "line {line} of the code around your blank",
 "code.where_around_blanks": "line {line} of the code around your blanks",
 "code.where_column": "column {column} of your blank",
 "code.where_column_of_blank": "column {column} of blank {blank}",
 "code.where_line": "line {line} of your blank",
 "code.where_line_column": "line {line}, column {column} of your blank",
 "code.where_line_column_of_blank": "line {line}, column {column} of blank {blank}",
 "code.where_line_of_blank": "line {line} of blank {blank}",
 "code.where_outside": "outside your code",
 "code.your_code": "your code",
 "hints.label": "Hint {number} of {total}.",
 "hints.next": "Hint {number} of {total}",
 "hints.none_left": "No more hints",
 "progress.with_hints": {
  "one": "({count} with hints)",
  "other": "({count} with hints)"
 }
};
