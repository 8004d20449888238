"""mkdocs serve: isolation headers on every response, and Python edits taken up or flagged."""

import importlib
import logging
import os
import sys
import time

from livelab.builder.dev import SourceWatch, isolate
from livelab.builder.serve import ISOLATION_HEADERS


def test_every_served_response_is_cross_origin_isolated():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"<p>page</p>"]

    seen = {}

    def start_response(status, headers, *exc_info):
        seen.update(status=status, headers=dict(headers))

    body = isolate(app)({}, start_response)
    assert body == [b"<p>page</p>"]
    assert seen["status"] == "200 OK"
    for name, value in ISOLATION_HEADERS.items():
        assert seen["headers"][name] == value
    assert seen["headers"]["Content-Type"] == "text/html"


def _touch(path, text):
    path.write_text(text, encoding="utf-8")
    later = time.time() + 5  # mtimes can be coarse; make the edit visible for sure
    os.utime(path, (later, later))


def test_an_edited_course_module_is_reloaded_for_real(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "lib.py").write_text("X = 1\n", encoding="utf-8")
    course = tmp_path / "mycourse_labs_dev.py"
    course.write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("mycourse_labs_dev")

    try:
        watch = SourceWatch(package, ["mycourse_labs_dev"])
        assert watch.take_up() == []
        _touch(course, "VALUE = 2\n")
        assert watch.take_up() == ["mycourse_labs_dev"]
        assert sys.modules["mycourse_labs_dev"].VALUE == 2
        assert watch.take_up() == []  # nothing edited since
    finally:
        sys.modules.pop("mycourse_labs_dev", None)


def test_an_edit_of_livelab_itself_asks_for_a_restart(tmp_path, caplog):
    package = tmp_path / "livelab"
    package.mkdir()
    source = package / "kernels.py"
    source.write_text("A = 1\n", encoding="utf-8")
    watch = SourceWatch(package, [])
    _touch(source, "A = 2\n")
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.livelab"):
        watch.take_up()
    assert "kernels.py" in caplog.text
    assert "restart `mkdocs serve`" in caplog.text
