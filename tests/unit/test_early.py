"""Every built page that loads the runtime client starts Python's worker from its first lines.

livelab.builder.early edits the built HTML (both builders write the client's script tag); the
browser side, that client.js adopts the worker and its messages, is in tests/browser
(test_runtime.py, and test_builders.py for both builders).
"""

from pathlib import Path

from livelab.builder import early

CLIENT = '<script src="../../assets/livelab/runtime/page/client.js" type="module" async></script>'
HEAD = '<html><head>\n<meta charset="utf-8">\n<title>A page</title>\n{}</head><body></body></html>'


def write(site: Path, path: str, text: str) -> Path:
    file = site / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def test_the_script_comes_right_after_the_charset_and_points_where_the_client_does():
    page = early.with_early_worker(HEAD.format(CLIENT))
    charset = page.index('<meta charset="utf-8">') + len('<meta charset="utf-8">')
    assert page[charset:].startswith(f"<script {early.MARK}>")
    assert '"../../assets/livelab/runtime/worker/worker.js"' in page
    assert page.index(early.MARK) < page.index("<title>") < page.index("client.js")


def test_the_same_script_leaves_materials_search_worker_alone():
    page = early.with_early_worker(HEAD.format(CLIENT))
    script = page[page.index(f"<script {early.MARK}>") : page.index("</script>")]
    assert "self.Worker =" not in script and "__livelabSearch" not in script


def test_a_page_without_the_client_is_left_as_it_is():
    page = HEAD.format('<script src="app.js"></script>')
    assert early.with_early_worker(page) == page


def test_running_the_step_twice_adds_one_script(tmp_path):
    lesson = write(tmp_path, "a/b/index.html", HEAD.format(CLIENT))
    home = write(tmp_path, "index.html", HEAD.format(CLIENT.replace("../../", "")))
    plain = write(tmp_path, "plain.html", HEAD.format(""))
    assert early.start_workers_early(tmp_path) == 2
    assert early.start_workers_early(tmp_path) == 0
    assert lesson.read_text(encoding="utf-8").count(early.MARK) == 1
    assert '"assets/livelab/runtime/worker/worker.js"' in home.read_text(encoding="utf-8")
    assert early.MARK not in plain.read_text(encoding="utf-8")
