"""The author check's browser half: numeric questions replay in the page's JavaScript grader,
code questions in its Pyodide worker, with the same verdicts and messages as in CPython."""

from livelab.builder.check import replay_in_browser


def test_every_question_replays_in_the_browser_as_in_cpython(page, site):
    page.goto(site.url(""))
    problems = {
        q.id: replay_in_browser(page, site.url("assets/livelab/"), q)
        for questions in site.questions.values()
        for q in questions
    }
    assert problems and all(found == [] for found in problems.values()), problems


def test_numeric_questions_replay_in_the_page_grader_without_python(page, site):
    page.context.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(site.url(""))
    numeric = [q for questions in site.questions.values() for q in questions if q.kind == "numeric"]
    problems = {q.id: replay_in_browser(page, site.url("assets/livelab/"), q) for q in numeric}
    assert problems and all(found == [] for found in problems.values()), problems
