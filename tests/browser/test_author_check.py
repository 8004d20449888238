"""The author check's browser half: every numeric and code question replays in Pyodide."""

from livelab.check import replay_in_browser


def test_every_question_replays_in_pyodide_as_in_cpython(page, site):
    page.goto(site.url(""))
    client = site.url("assets/livelab/runtime/client.js")
    problems = {
        q.id: replay_in_browser(page, client, q)
        for questions in site.questions.values()
        for q in questions
    }
    assert problems and all(found == [] for found in problems.values()), problems
