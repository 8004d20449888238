// What a French site's students read from the browser's own sentences (py/livelab/web/i18n.js
// with the French table, as a build with theme.language fr writes it): the numeric grader's
// messages over every shared answer vector, the choice and progress sentences with their plural
// forms, and a run's status. The browser code is copied beside a French strings.js, so the
// modules are the package's own. Run: node --test tests/js/

import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { after } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const WEB = fileURLToPath(new URL("../../py/livelab/web/", import.meta.url));
const TABLES = new URL("../../py/livelab/i18n/", import.meta.url);
const table = (code) => JSON.parse(readFileSync(new URL(`${code}.json`, TABLES), "utf8"));
const english = table("en");

// The French site's browser code: the package's modules, with the table the build would write.
const copy = mkdtempSync(join(tmpdir(), "livelab-fr-"));
after(() => rmSync(copy, { recursive: true, force: true }));
cpSync(WEB, copy, { recursive: true, filter: (path) => !path.includes("codemirror.bundle") });
const strings = { ...english, ...table("fr"), "@code": "fr" };
writeFileSync(join(copy, "strings.js"), `export default ${JSON.stringify(strings)};\n`);
const load = (path) => import(pathToFileURL(join(copy, path)).href);

const { t, language } = await load("i18n.js");
const { gradeNumeric } = await load("grading/numeric.js");
const { PendingChanges } = await load("progress/pending.js");
const { endedText, ranText } = await load("widgets/run-words.js");

const NBSP = "\u00a0";
const VECTORS = new URL("../answer_vectors.json", import.meta.url);
const { specs, cases } = JSON.parse(readFileSync(VECTORS, "utf8"));
const expand = (text) =>
  typeof text === "string" ? text : (text.before ?? "") + text.repeat.repeat(text.times) + (text.after ?? "");

test("the table is French, and a count picks French's plural form (0 and 1 are one)", () => {
  assert.equal(language, "fr");
  assert.equal(t("choice.not_picked", { count: 1 }), "1 bonne option n’est pas encore cochée.");
  assert.equal(t("choice.not_picked", { count: 2 }), "2 bonnes options ne sont pas encore cochées.");
  assert.equal(t("progress.answers_shown", { count: 0 }), "0 réponse affichée");
  assert.equal(t("progress.page_solved", { count: 3, total: 5, help: "" }), "3 questions résolues sur 5.");
  assert.equal(t("verdict.stale", { verdict: "Pas encore." }), `À propos de votre réponse précédente${NBSP}: Pas encore.`);
});

test("the grader judges a French site's answers as an English one, and words every message in French", () => {
  let worded = 0;
  for (const { spec: name, text, result } of cases) {
    const spec = specs[name];
    const french = gradeNumeric(spec, expand(text));
    assert.equal(french.verdict, result.verdict, JSON.stringify(text));
    assert.equal(french.column, result.column, JSON.stringify(text));
    const authors = (spec.wrong ?? []).map(([, message]) => message);
    if (result.message === "" || authors.includes(result.message)) {
      assert.equal(french.message, result.message);
      continue;
    }
    assert.notEqual(french.message, result.message, `still English: ${result.message}`);
    assert.doesNotMatch(french.message, /\{\w+\}|“|”/, french.message);
    assert.doesNotMatch(french.message, /\b(the|is|are|number|answer|could not)\b/i, french.message);
    worded += 1;
  }
  assert.ok(worded > 100, `only ${worded} messages of the grader's own`);
});

test("a French student reads where and why an answer could not be read", () => {
  const number = { answer: 0.84, decimals: 2, wrong: [] };
  const pair = { answer: [0, 1.41], decimals: 2, wrong: [] };
  assert.deepEqual(gradeNumeric(number, "0.84 radians"), {
    verdict: "unreadable",
    message:
      `Impossible de lire «${NBSP}radians${NBSP}» (caractère 6)${NBSP}: le nom «${NBSP}radians${NBSP}» est inconnu${NBSP}; ` +
      `les noms connus sont sqrt, sin, cos, exp, ln, pi et e.`,
    column: 6,
  });
  assert.equal(gradeNumeric(number, "").message, "La réponse est vide.");
  assert.equal(gradeNumeric(pair, "0, ").message, `La composante 2 est vide${NBSP}: mettez-y un nombre.`);
  assert.equal(
    gradeNumeric(number, "0.8").message,
    "Presque. Calculez avec des valeurs non arrondies et donnez 2 décimales.",
  );
  assert.equal(gradeNumeric({ ...pair, decimals: 1 }, "0 1.5").message, [
    "La composante 2 est presque juste.",
    "Calculez avec des valeurs non arrondies et donnez 1 décimale.",
  ].join(" "));
  assert.equal(
    gradeNumeric(pair, "1 2 3").message,
    `La réponse compte 2 nombres${NBSP}; vous en avez donné 3.`,
  );
});

test("saved progress waiting for room, and a run's status, are said in French", () => {
  const pending = new PendingChanges();
  assert.equal(pending.describe(), "rien");
  pending.reset();
  pending.set("page/", "questions", "q1", {});
  pending.set("page/", "questions", "q2", {});
  pending.set("page/", "labs", "rope", {});
  assert.equal(pending.describe(), "la remise à zéro de votre progression et 2 réponses et 1 réglage de lab");
  assert.equal(ranText({}), "Terminé.");
  assert.equal(ranText({ error: { type: "NameError", line: 3 } }), `NameError à la ligne 3${NBSP}; voir la sortie.`);
  const stop = { type: "Stopped", message: "Arrêté : vous avez arrêté l’exécution." };
  assert.equal(endedText(stop), `${stop.message} Ce que le code a affiché avant l’arrêt n’est pas montré.`);
});
