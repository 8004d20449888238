// What a saved question counts as (progress/states.js): solved, solved with hints, shown.
// Run: node --test tests/js/

import assert from "node:assert/strict";
import test from "node:test";

import { questionState, tally, withHintsText } from "../../py/livelab/web/progress/states.js";

const entries = {
  alone: { attempts: 1, solvedAt: 1, hints: 0, hintsAtSolve: 0 },
  helped: { attempts: 3, solvedAt: 3, hints: 2, hintsAtSolve: 2 },
  // Hints asked for after the solve do not make it a solve with hints.
  later: { attempts: 1, solvedAt: 1, hints: 2, hintsAtSolve: 0 },
  // Saved before hintsAtSolve existed: solved, and not counted as helped.
  old: { attempts: 2, solvedAt: 2, hints: 1 },
  shown: { attempts: 2, shown: true, hints: 3 },
  open: { attempts: 1, hints: 1 },
};

test("a solve with hints is solved and counted apart", () => {
  assert.equal(questionState(entries.helped), "correct");
  const counts = tally(Object.keys(entries), entries);
  assert.deepEqual(counts, { solved: 4, withHints: 1, shown: 1, tried: 6, total: 6, firstTry: 2 });
});

test("the count of solves with hints reads as a parenthesis, or nothing", () => {
  assert.equal(withHintsText(0), "");
  assert.equal(withHintsText(1), " (1 with hints)");
  assert.equal(withHintsText(3), " (3 with hints)");
});
