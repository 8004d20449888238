"""The course on every engine a student uses: Chromium, Firefox and WebKit.

A focused set, each test run once per engine: the level-19 pages load without a console
error, every registered lab goes live and follows a control (a lab that runs is run to its end
and must end where the build's run did), each registered question kind
grades a right and a wrong answer, Stop ends a runaway check, progress survives a reload, and
offline use works where the engine offers a service worker. Where an engine lacks something
(cross-origin isolation, hence SharedArrayBuffer), the test shows the page's fallback.
Labs, kinds, answers and expected numbers come from the registries, never from this file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import livelab
from livelab.builder.kinds import all_kinds
from livelab.builder.serve import make_server, serve_in_thread
from livelab.labs import all_labs, lab
from tests.browser.test_offline import ACTIVATED
from tests.engines.tab import EngineError, Role, Tab
from tests.harness import Site

LESSON = "level-19/modern-blocks/"
CLIENT = "/assets/livelab/runtime/page/client.js"
LAB_JS = "/assets/livelab/widgets/lab.js"
ENDLESS = "next(n for n in iter(int, 1) if n)"  # a blank that never ends (as test_questions)
CORRECT = re.compile("^Correct")
STOPS = Path(livelab.__file__).parent / "web" / "runtime" / "shared" / "stops.js"
# How long the runtime itself lets one phase of a boot go silent (compiling, importing NumPy)
# before it says the boot failed (web/runtime/shared/stops.js). A cold boot gets that and 30 s
# more: a slow engine then fails with the runtime's own message, never first on the test's
# clock. 90 s was shorter than that window, and a fresh clone's WebKit once spent it in NumPy.
WORK_STALL_S = (
    int(re.search(r"WORK_STALL_MS = ([\d_]+);", STOPS.read_text(encoding="utf-8"))[1]) / 1000
)
BOOT_TIMEOUT = WORK_STALL_S + 30.0

LABS_ON_PAGE = """() => [...document.querySelectorAll("[data-lab]")]
    .map((el) => [el.dataset.lab, el.dataset.labKind])"""
IS_LIVE = """(selector) => {
    const status = document.querySelector(selector + " [data-status]");
    return status !== null && /^Live:/.test(status.textContent.trim());
}"""
# A student opens the note or fold a lab sits in before using it.
OPEN_AROUND = """(selector) => {
    for (let el = document.querySelector(selector); el; el = el.parentElement) {
        if (el.localName === "details") el.open = true;
    }
}"""
LAB_SHOWS = """async (selector) => {
    const { readParams } = await import(LAB_JS);
    const el = document.querySelector(selector);
    const texts = {};
    for (const node of el.querySelectorAll("[data-text]")) {
        texts[node.dataset.text] = node.textContent.trim();
    }
    return { params: readParams(el), texts };
}""".replace("LAB_JS", repr(LAB_JS))
# The runner a check's blank runs in (while it runs), and whether the page's main worker is
# still the first one (it never runs student code, so nothing a stop does replaces it).
RUNNER = """async () => {
    const { runner, runtime } = await import(CLIENT);
    self.__firstMain ??= runtime.worker;
    return runner.running && { inPlace: runner.interrupt !== null,
             mainKept: runtime.worker === self.__firstMain };
}""".replace("CLIENT", repr(CLIENT))
MAIN_KEPT = RUNNER.replace("return runner.running && {", "return {")
# Whether the page's main worker was given the interrupt buffer (so stops land in place).
IN_PLACE = f"""async () => ({{ inPlace: (await import({CLIENT!r})).runtime.interrupt !== null }})"""


def serve_plainly(site: Site) -> Site:
    """The built site's files at another port, as they are."""
    server = make_server(site.site_dir, port=0, isolated=site.isolated)
    served = Site(server, site.site_dir, site.isolated)
    serve_in_thread(server)
    return served


def lab_selector(lab_id: str) -> str:
    return f'[data-lab="{lab_id}"]'


RUNTIME_STATE = """async () => {
    const { runtime } = await import(CLIENT);
    return JSON.stringify(runtime.report());
}""".replace("CLIENT", repr(CLIENT))


@contextmanager
def saying_where_python_is(tab: Tab) -> Iterator[None]:
    """A wait on Python that fails says where the boot got to and what errors the page
    reported (if the browser still answers)."""
    try:
        yield
    except EngineError as exc:
        try:
            state = tab.evaluate(RUNTIME_STATE)
            errors = tab.errors  # a page error that stopped a check shows here
        except EngineError as unreachable:
            state, errors = f"not readable ({unreachable})", []
        raise EngineError(f"{exc}\nruntime: {state}\npage errors: {errors}") from None


def wait_live(tab: Tab, lab_id: str) -> None:
    with saying_where_python_is(tab):
        tab.wait_for(IS_LIVE, lab_selector(lab_id), timeout=BOOT_TIMEOUT)


# What a question shows besides its verdict: its fields' values and whether they are enabled,
# and the verdict line's state (for a failed wait's message).
QUESTION_SHOWS = """(selector) => {
    const el = document.querySelector(selector);
    if (el === null) return "no such question on the page";
    const fields = [...el.querySelectorAll("input, textarea")]
        .map((f) => ({ value: f.value, disabled: f.disabled, checked: f.checked }));
    return JSON.stringify({ fields, verdict: { ...el.querySelector("[data-verdict]")?.dataset } });
}"""


def wait_graded(tab: Tab, q, pattern: str | re.Pattern[str]) -> str:
    """The question's verdict once it matches `pattern`, Python's start included."""
    try:
        with saying_where_python_is(tab):
            return tab.wait_text(verdict(q.id), pattern, timeout=BOOT_TIMEOUT)
    except EngineError as exc:
        try:
            shows = tab.evaluate(QUESTION_SHOWS, question_box(q.id))
        except EngineError as unreachable:
            shows = f"not readable ({unreachable})"
        raise EngineError(f"{exc}\nthe question shows: {shows}") from None


def first_lab_of_each_kind(tab: Tab) -> dict[str, str]:
    first: dict[str, str] = {}
    for lab_id, kind in tab.evaluate(LABS_ON_PAGE):
        first.setdefault(kind, lab_id)
    return first


# ---- pages --------------------------------------------------------------------------------


def test_every_level_19_page_loads_and_goes_live_without_a_console_error(tab, site):
    pages = [url for url in site.pages if url.startswith("level-19/")]
    assert len(pages) >= 2, site.pages
    for url in pages:
        tab.goto(site.url(url))
        labs = [lab_id for lab_id, _ in tab.evaluate(LABS_ON_PAGE)]
        assert labs, url  # every lesson has a lab, so Python boots on each
        for lab_id in labs:
            wait_live(tab, lab_id)
        assert tab.errors == [], (tab.engine, url)


# ---- labs ---------------------------------------------------------------------------------


def first_control(kind: str, lab_id: str) -> tuple[Role, tuple[str, str]]:
    """The lab's first slider (or number field, or the chosen radio of a choice), and the two
    keys that move it."""
    controls = lab(kind).params.controls()
    for control, role, keys in (
        ("range", "slider", ("ArrowRight", "ArrowLeft")),
        ("number", "spinbutton", ("ArrowUp", "ArrowDown")),
        ("radio", "radio", ("ArrowDown", "ArrowUp")),
    ):
        for name, spec in controls.items():
            if spec.control == control:
                label = dict(spec.choices)[spec.default] if control == "radio" else spec.label
                target = Role(role, label or name, within=lab_selector(lab_id), exact=True)
                return target, keys
    raise AssertionError(f"lab {kind} has neither a slider, a number field nor a choice")


def move_and_check(tab: Tab, kind: str, lab_id: str) -> None:
    """Move the lab's first control one step; it must show what Python computes for that."""
    selector = lab_selector(lab_id)
    control, (forward, back) = first_control(kind, lab_id)
    before = tab.evaluate(LAB_SHOWS, selector)["params"]
    tab.press(control, forward)
    if tab.evaluate(LAB_SHOWS, selector)["params"] == before:  # it was at its maximum
        tab.press(control, back)
    shown = tab.evaluate(LAB_SHOWS, selector)
    assert shown["params"] != before, (tab.engine, kind)
    expected = lab(kind).first_view(shown["params"])["view"]["text"]
    tab.wait_for(
        """([selector, expected]) => Object.entries(expected).every(([name, text]) => {
            const node = document.querySelector(`${selector} [data-text="${name}"]`);
            return node === null || node.textContent.trim() === text;
        })""",
        [selector, expected],
    )
    texts = tab.evaluate(LAB_SHOWS, selector)["texts"]
    shared = [name for name in texts if name in expected]
    assert shared, (tab.engine, kind)
    assert {k: texts[k] for k in shared} == {k: expected[k] for k in shared}, (tab.engine, kind)


# A lab that runs (a training) is checked by running it: at its defaults it must end where the
# build's CPython run ended, its numbers within RUN_TOLERANCE (tests/browser/test_running_lab.py
# says why they may differ at all), its other texts exactly.
RUN_TOLERANCE = 2e-3
RUN_FINISHED = """(selector) => document.querySelector(selector + " [data-run-status]")
    .textContent.startsWith("Finished")"""


def run_and_check(tab: Tab, kind: str, lab_id: str) -> None:
    selector = lab_selector(lab_id)
    tab.click(Role("button", "Run", within=selector, exact=True))
    with saying_where_python_is(tab):
        tab.wait_for(RUN_FINISHED, selector, timeout=BOOT_TIMEOUT)
    shown = tab.evaluate(LAB_SHOWS, selector)
    expected = lab(kind).first_view(shown["params"])["view"]["text"]
    for name, text in expected.items():
        got = shown["texts"].get(name)
        try:
            assert float(got) == pytest.approx(float(text), abs=RUN_TOLERANCE), (kind, name)
        except (TypeError, ValueError):
            assert got in (None, text), (tab.engine, kind, name, got, text)


def test_every_lab_goes_live_and_shows_what_python_computes_after_a_move(tab, site):
    tab.goto(site.url(LESSON))
    labs = first_lab_of_each_kind(tab)
    assert set(labs) == set(all_labs())  # the lesson shows every registered lab
    for kind, lab_id in labs.items():
        tab.evaluate(OPEN_AROUND, lab_selector(lab_id))
        wait_live(tab, lab_id)
        if lab(kind).run is None:
            move_and_check(tab, kind, lab_id)
        else:
            run_and_check(tab, kind, lab_id)
    assert tab.errors == []


# ---- questions ----------------------------------------------------------------------------


def question_box(qid: str) -> str:
    return f'[data-question="{qid}"]'


def answer_numeric(tab: Tab, q, answer: str) -> None:
    tab.fill(Role("textbox", "Your answer", within=question_box(q.id)), answer)
    tab.click(Role("button", "Check", within=question_box(q.id), exact=True))


def answer_choice(tab: Tab, q, answer: str) -> None:
    option = q.options[int(answer)].text
    tab.click(Role("radio", option, within=question_box(q.id), exact=True))
    tab.click(Role("button", "Check", within=question_box(q.id), exact=True))


def answer_code(tab: Tab, q, answer: str, button: str = "Check") -> None:
    tab.fill(Role("textbox", re.compile("blank"), within=question_box(q.id)), answer)
    tab.click(Role("button", button, within=question_box(q.id), exact=True))


# How a student gives an answer of each kind (the kind's replays say what answer to give).
ANSWER = {"numeric": answer_numeric, "choice": answer_choice, "code": answer_code}
NOT_ON_LEVEL_19 = {"exercise"}
"""Kinds level 19 does not use: an exercise (a code question on the page, code.js, the same
checks) is graded on each engine from a page of its own, tests/engines/test_exercise_engines.py."""


def verdict(qid: str) -> Role:
    return Role("status", within=question_box(qid))


def first_question(site: Site, kind: str):
    for url, questions in site.questions.items():
        for q in questions:
            if q.kind == kind and url.startswith("level-19/"):
                return url, q
    raise AssertionError(f"no {kind} question in level 19")


def test_every_question_kind_grades_a_right_and_a_wrong_answer(tab, site):
    kinds = {name: kind for name, kind in all_kinds().items() if name not in NOT_ON_LEVEL_19}
    assert set(ANSWER) | NOT_ON_LEVEL_19 == set(all_kinds()), "a new kind needs its answer here"
    for name, kind in kinds.items():
        url, q = first_question(site, name)
        replays = list(kind.replays(q))
        right = next(r for r in replays if r.verdict == "correct")
        wrong = next(r for r in replays if r.verdict != "correct" and r.message)
        tab.goto(site.url(url))
        ANSWER[name](tab, q, wrong.answer)
        shown = wait_graded(tab, q, "Not yet")
        assert wrong.message in shown, (tab.engine, name, shown)
        ANSWER[name](tab, q, right.answer)
        wait_graded(tab, q, CORRECT)
    assert tab.errors == []


def test_stop_ends_a_runaway_check_and_the_next_check_is_graded(tab, site):
    url, q = site.question("c2")
    tab.goto(site.url(url))
    answer_code(tab, q, q.reference_blank)  # Python is up and warm: the next run is stoppable
    wait_graded(tab, q, CORRECT)
    tab.evaluate(MAIN_KEPT)
    answer_code(tab, q, ENDLESS)
    running = tab.wait_for(RUNNER, timeout=BOOT_TIMEOUT)  # a fresh runner runs the blank
    tab.click(Role("button", "Stop", within=question_box(q.id), exact=True))
    tab.wait_text(verdict(q.id), "you stopped the run")
    answer_code(tab, q, q.reference_blank)
    wait_graded(tab, q, CORRECT)
    # In place (an interrupt through SharedArrayBuffer) where the page is cross-origin
    # isolated; elsewhere the designed fallback: the runner is ended. Either way the page's
    # main worker, which grades, is the one it started with.
    features = tab.features()
    assert running["inPlace"] == (features["isolated"] and features["sharedArrayBuffer"])
    assert tab.evaluate(MAIN_KEPT)["mainKept"], tab.engine


# ---- progress and offline -----------------------------------------------------------------


def test_answers_survive_a_reload(tab, site):
    url, q = first_question(site, "numeric")
    tab.goto(site.url(url))
    answer_numeric(tab, q, q.answer_text)
    tab.wait_text(verdict(q.id), CORRECT)
    tab.reload()
    field = Role("textbox", "Your answer", within=question_box(q.id))
    tab.wait_value(field, q.answer_text)
    tab.wait_text(verdict(q.id), CORRECT)


# What each engine offers the page here (Debian's builds, pages at http://127.0.0.1 with the
# isolation headers): WebKitGTK reports crossOriginIsolated but has no SharedArrayBuffer.
OFFERS = {
    "chromium": {"isolated": True, "sharedArrayBuffer": True, "serviceWorker": True},
    "firefox": {"isolated": True, "sharedArrayBuffer": True, "serviceWorker": True},
    "webkit": {"isolated": True, "sharedArrayBuffer": False, "serviceWorker": True},
}


def test_the_engine_offers_the_page_what_this_suite_expects(tab, site):
    tab.goto(site.url(LESSON))
    features = tab.features()
    assert {k: features[k] for k in OFFERS[tab.engine]} == OFFERS[tab.engine]
    runtime = tab.evaluate(IN_PLACE)
    assert runtime["inPlace"] == (features["isolated"] and features["sharedArrayBuffer"])


# How a reload boots once the first visit stored its snapshot, NumPy files and .pyc files.
# WebKitGTK's automation session is ephemeral and keeps no Cache Storage entry across a
# reload (localStorage it keeps), so there the page boots as on a first visit, as designed
# for a browser without stored data.
# Where a reload's interpreter and NumPy came from (runtime/shared/boot-plan.js): WebKitGTK
# stores no snapshot and no NumPy files, so it starts the normal way from the cached wheel.
RELOAD_BOOT = {
    "chromium": {"interpreter": "snapshot", "numpy": "stored"},
    "firefox": {"interpreter": "snapshot", "numpy": "stored"},
    "webkit": {"interpreter": "fresh", "numpy": "wheel"},
}
REPORT = """async () => (await import(CLIENT)).runtime.report()""".replace("CLIENT", repr(CLIENT))
SETTLED = """async () => (await import(CLIENT)).runtime.report().settled""".replace(
    "CLIENT", repr(CLIENT)
)


def test_a_reload_uses_what_the_first_visit_stored_or_boots_without_it(tab, site):
    tab.goto(site.url(LESSON))
    wait_live(tab, "rope")
    tab.wait_for(SETTLED, timeout=BOOT_TIMEOUT)  # what the first visit stores is stored
    tab.reload()
    wait_live(tab, "rope")
    steps = tab.evaluate(REPORT)["steps"]
    assert {k: steps[k]["from"] for k in RELOAD_BOOT[tab.engine]} == RELOAD_BOOT[tab.engine]
    # Nothing stored was damaged or refused.
    assert "why" not in steps["bytecode"], steps
    assert tab.engine == "webkit" or "why" not in steps["interpreter"], steps
    move_and_check(tab, "rope", "rope")


def test_offline_after_one_visit_a_lab_and_a_question_still_work(engine, site):
    # A server of its own, stopped after the first visit: the network is gone for this tab.
    # Its pages are served as built, without WebKit's error probe: the service worker checks
    # each page it precaches against the build's hash (test_every_level_19_page... looks for
    # console errors).
    served = serve_plainly(site)
    tab = engine.tab()
    try:
        tab.goto(served.url(LESSON))
        wait_live(tab, "rope")
        assert tab.evaluate(ACTIVATED, 60_000) == "activated", tab.engine
        served.close()
        tab.reload()
        assert tab.evaluate("() => navigator.serviceWorker.controller !== null")
        wait_live(tab, "rope")
        q = next(q for q in site.questions[LESSON] if q.kind == "numeric")
        answer_numeric(tab, q, q.answer_text)
        tab.wait_text(verdict(q.id), CORRECT)
    finally:
        tab.close()
        served.close()
