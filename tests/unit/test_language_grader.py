"""The grader and the worker's Python speak the site's language (livelab.i18n): a French
site's student reads every message of a check, a run, the scratchpad and a restart in French.

Each message is made when it is said, so the language chosen after the modules were imported
(as the browser's worker reads livelab/i18n/site.json) is the one that counts.
"""

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import labs.kernels  # noqa: F401  (registers the course's code questions)
import livelab
from livelab import explain, figures, grading, i18n, scratch, sleep, worker_api
from livelab.builder import assets
from livelab.questions import all_code_questions

ROOT = Path(__file__).resolve().parents[2]
NBSP = "\u00a0"
ENGLISH = ("Your ", "your function", "returned", "Traceback (your code)", " the blank", "Python ")


@pytest.fixture(autouse=True)
def french():
    """A French site (tests/conftest.py puts English back after each test)."""
    i18n.use("fr")


def test_a_wrong_value_is_told_in_french():
    result = grading.check(
        "rmsnorm", "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps).round()"
    )
    assert result["verdict"] == "wrong"
    assert result["message"] == (
        "Sur the row x = [3, 4], votre fonction a renvoyé 0.75 à l’indice 0, là où 0.848528 "
        f"est attendu{NBSP}: comparez chaque étape de votre formule à la définition."
    )
    failed = [case["detail"] for case in result["cases"] if not case["passed"]]
    assert failed and all(detail.startswith("a renvoyé ") for detail in failed)
    passed = [case["detail"] for case in result["cases"] if case["passed"]]
    assert set(passed) <= {"correspond à la référence"}


def test_a_correct_check_and_a_run_say_so_in_french():
    rms = all_code_questions()["rmsnorm"]
    result = grading.check("rmsnorm", rms.reference_blank)
    assert result["message"] == (
        f"Votre fonction correspond à la référence sur les {len(result['cases'])} cas{NBSP}: "
        "l’exemple et les cas cachés."
    )
    assert grading.run("rmsnorm", rms.reference_blank)["message"] == (
        f"Votre code s’est exécuté sans erreur{NBSP}; Vérifier essaie aussi des entrées cachées."
    )


@pytest.mark.parametrize(
    ("question", "blank", "said"),
    [
        ("rmsnorm", "np.sqrt(np.mean(x**2", "Erreur de syntaxe, colonne 16 de votre trou"),
        ("rmsnorm", "zeros", f"NameError, colonne 1 de votre trou{NBSP}: name 'zeros'"),
        ("rmsnorm", "zeros", f"(vouliez-vous dire np.zeros{NBSP}?)."),
        ("rmsnorm", "np.ones((1,) + x.shape)", "a renvoyé la forme (1, 4) au lieu de (4,)"),
        ("rmsnorm", "np.ones((1,) + x.shape)", "supprimez l’axe de longueur 1 en trop au début."),
        ("swiglu_ffn", "return [1.0]", "a renvoyé une liste"),
        (
            "swiglu_ffn",
            "return ((silu(x @ W_gate) * (x @ W_up)) @ W_down).astype(int)",
            "a renvoyé un tableau d’entiers (int64)",
        ),
        ("rmsnorm", "1 + input()", "input() n’est pas disponible sur cette page"),
        (
            "rmsnorm",
            "np.zeros(10**20)",
            "une taille doit ici être inférieure à 2\u202f147\u202f483\u202f648",
        ),
        (
            "swiglu_ffn",
            "(silu(x @ W_gate) * (x @ W_up)) @ W_down",
            "commencez votre ligne par return",
        ),
        ("swiglu_ffn", "global swiglu_ffn\ndel swiglu_ffn", "plus de fonction nommée swiglu_ffn."),
    ],
)
def test_a_failed_check_is_told_in_french(question, blank, said):
    message = grading.check(question, blank)["message"]
    assert said in message
    assert not [word for word in ENGLISH if word in message], message


def test_a_slow_check_is_told_in_french():
    quick = dataclasses.replace(all_code_questions()["rmsnorm"], time_budget=0.0)
    result = grading.check(quick, "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)")
    assert result["verdict"] == "too_slow"
    assert result["message"].startswith("Votre code a pris ")
    assert "remplacez les boucles Python" in result["message"]


def test_the_scratchpad_traceback_and_its_plain_clause_are_in_french():
    output = scratch.run("def f():\n    return [0] * 10**20\nf()")["output"]
    assert output.startswith(f"Traceback (votre code){NBSP}:\n  ligne 3, dans <module>\n")
    assert "  ligne 2, dans f\n" in output
    assert "Le nombre est trop grand pour être la taille d’une liste" in output
    scratch.clear()


def test_a_long_sleep_is_refused_in_french():
    with pytest.raises(TimeoutError, match=f"attendrait 100{NBSP}s, mais une exécution"):
        sleep.sleep(100)


def test_a_restart_and_a_damaged_interpreter_are_told_in_french():
    assert worker_api.restart_note("changed").startswith("Votre code a modifié les modules")
    assert f"a dépassé 256{NBSP}Mo" in worker_api.restart_note("memory")
    # A damaged interpreter is still recognised in a French reply (its clause JSON-escaped).
    reply = json.loads(
        worker_api.call("scratch_run", json.dumps({"code": "raise SystemError('x')"}))
    )
    assert "endommag" not in reply["value"]["output"]
    clause = explain.plain("SystemError", explain.BROKEN_TEXT)
    assert clause.startswith("l’intérieur de Python a été endommagé")
    code = f"raise SystemError({explain.BROKEN_TEXT!r})"
    worker_api.call("scratch_run", json.dumps({"code": code}))
    assert worker_api.after_request(None, True, 0) == ("broken", worker_api.restart_note("broken"))
    scratch.clear()


def test_a_figure_is_described_in_french():
    line = SimpleNamespace(get_label=lambda: "perte")
    axes = SimpleNamespace(
        get_title=lambda: "",
        get_xlabel=lambda: "pas",
        get_ylabel=lambda: "",
        get_lines=lambda: [line, line],
        patches=[],
        collections=[],
        images=[],
    )
    figure = SimpleNamespace(_suptitle=None, get_axes=lambda: [axes])
    assert figures.describe(figure, 1) == (
        f"Figure 1{NBSP}: un graphique, x{NBSP}: pas, 2 courbes{NBSP}: perte\u00a0; perte."
    )


def test_english_is_what_it_always_was():
    i18n.use("en")
    message = grading.check("swiglu_ffn", "global swiglu_ffn\ndel swiglu_ffn")["message"]
    assert message == "After your blank runs there is no function named swiglu_ffn any more."
    assert worker_api.restart_note("memory") == (
        "Python's memory grew past 256 MB, so Python was restarted to give it back; the next "
        "check starts clean."
    )


def test_a_stored_snapshot_of_another_language_is_not_restored(tmp_path):
    """The worker reads the language from the archive's livelab/i18n/site.json at each boot;
    the memory snapshot holds none of livelab, and its key names the archive (snapshot.js
    snapshotKey: manifest.archive), whose name is its content's hash: so a snapshot stored by
    a build in another language is dropped, never restored."""
    package = Path(livelab.__file__).parent
    names = {
        code: assets.write_package_archive(package, tmp_path / code, language=code).name
        for code in ("en", "fr")
    }
    assert names["en"] != names["fr"]
    key = (ROOT / "py/livelab/web/runtime/shared/snapshot.js").read_text(encoding="utf-8")
    assert "manifest.archive].join" in key
