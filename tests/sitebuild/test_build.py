"""`mkdocs build --strict` of the real site, and authoring mistakes that must fail the build."""

import gzip
import html
import json
import os
import re
import subprocess
import sys
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from livelab.builder import fetch
from livelab.builder.question_markup import unseal
from livelab.labs import lab_view
from tests.harness import config_for_docs

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = [
    sys.executable,
    "-m",
    "mkdocs",
    "build",
    "--strict",
    "--config-file",
    str(ROOT / "mkdocs.yml"),
]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(site_dir: Path, docs_dir: Path | None = None) -> subprocess.CompletedProcess:
    """Build into site_dir; with docs_dir, build those pages under the real configuration."""
    args = [*MKDOCS, "--site-dir", str(site_dir)]
    if docs_dir is not None:
        args[args.index(str(ROOT / "mkdocs.yml"))] = str(config_for_docs(docs_dir))
    return subprocess.run(args, capture_output=True, text=True, env=ENV, cwd=ROOT, check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = build(out)
    assert result.returncode == 0, result.stderr
    return out


def test_the_site_builds_strict_and_ships_the_runtime(site):
    runtime = site / "assets/livelab"
    manifest = json.loads((runtime / "manifest.json").read_text())
    assert (runtime / manifest["archive"]).is_file()
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert (runtime / manifest["pyodide"] / name).is_file()
    assert list((runtime / "pyodide").glob("numpy-*.whl"))


def test_the_site_ships_the_pyc_files_a_first_visit_would_compile(site):
    runtime = site / "assets/livelab"
    manifest = json.loads((runtime / "manifest.json").read_text())
    packed = gzip.decompress((runtime / manifest["bytecode"]["file"]).read_bytes())
    assert len(packed) == manifest["bytecode"]["size"]
    # runtime/shared/stored.js's layout: a 4-byte length, a JSON index [[path, size], ...], bytes
    index_end = 4 + int.from_bytes(packed[:4], "little")
    index = json.loads(packed[4:index_end])
    assert index_end + sum(size for _, size in index) == len(packed)
    paths = {path for path, _ in index}
    with zipfile.ZipFile(runtime / manifest["archive"]) as archive:
        sources = {f"/opt/livelab/{name}" for name in archive.namelist() if name.endswith(".py")}
    site_packages = "/lib/python3.12/site-packages"
    expected = [
        "/opt/livelab/livelab/__pycache__/worker_api.cpython-312.pyc",
        f"{site_packages}/numpy/__pycache__/__init__.cpython-312.pyc",
        f"{site_packages}/numpy/random/__pycache__/__init__.cpython-312.pyc",
    ]
    assert all(path in paths for path in expected), sorted(paths)[:20]
    for path in paths:  # each beside a source of our package or NumPy's, where Python looks
        folder, name = path.rsplit("/__pycache__/", 1)
        source = f"{folder}/{name.split('.')[0]}.py"
        assert source in sources or source.startswith(f"{site_packages}/numpy/"), path
    at = index_end
    for _, size in index:  # hash-based and checked against its source (PEP 552)
        assert packed[at + 2 : at + 4] == b"\r\n" and packed[at + 4] == 0b11
        at += size


def test_the_site_serves_pyodides_standard_library_with_the_modules_a_visit_imports_compiled(
    site,
):
    runtime = fetch.fetch_runtime(fetch.cache_root())
    served = site / "assets/livelab/pyodide/python_stdlib.zip"
    manifest = json.loads((site / "assets/livelab/manifest.json").read_text())
    with (
        zipfile.ZipFile(runtime.pyodide / "python_stdlib.zip") as ours,
        zipfile.ZipFile(served) as theirs,
    ):
        original = {info.filename: ours.read(info) for info in ours.infolist()}
        compiled = {info.filename: theirs.read(info) for info in theirs.infolist()}
    pycs = {name for name in compiled if name.endswith(".pyc")}
    assert len(pycs) == manifest["bytecode"]["stdlib"] > 100
    # Pyodide's own start, NumPy's imports and ours: each .pyc replaces its source.
    for module in ("typing.pyc", "inspect.pyc", "json/__init__.pyc", "dataclasses.pyc"):
        assert module in pycs and module[:-1] not in compiled, module
    assert {name[:-1] for name in pycs} <= original.keys()
    # Everything else is Pyodide's entry, byte for byte.
    assert {name: data for name, data in compiled.items() if name not in pycs} == {
        name: data for name, data in original.items() if name + "c" not in pycs
    }
    for name in pycs:  # Python 3.12's, hash-based, not checked (there is no source beside it)
        assert compiled[name][:4] == (3531).to_bytes(2, "little") + b"\r\n", name
        assert compiled[name][4] == 0b01, name


def test_the_manifest_lists_the_standard_modules_a_visit_imports_for_the_memory_snapshot(site):
    preload = json.loads((site / "assets/livelab/manifest.json").read_text())["preload"]
    # Ours and NumPy's imports (json, dataclasses; hashlib for the state check), as the
    # standard library's own names; Pyodide's own start (typing, inspect) needs no preload.
    assert {"json", "dataclasses", "hashlib", "_json"} <= set(preload), preload
    assert not {"typing", "inspect"} & set(preload), preload
    stdlib = sys.stdlib_module_names
    assert [n for n in preload if n.split(".")[0] not in stdlib and "sysconfigdata" not in n] == []


def test_the_rope_lab_is_rendered_with_numbers_computed_at_build_time(site):
    page = (site / "level-19/modern-blocks/index.html").read_text(encoding="utf-8")
    match = re.search(r'<article [^>]*data-lab="rope"[^>]*data-params="([^"]*)"', page)
    assert match, "no element with data-lab=rope"
    params = json.loads(html.unescape(match.group(1)))
    expected = lab_view("rope", params)["view"]["text"]["score"]
    assert re.search(rf'<output [^>]*data-text="score"[^>]*>{re.escape(expected)}</output>', page)


def test_pages_carry_no_inline_script_from_fences(site):
    page = (site / "level-19/modern-blocks/index.html").read_text(encoding="utf-8")
    lab = page[page.index('data-lab="rope"') :]
    lab = lab[: lab.index("data-status")]
    assert "<script" not in lab


class _Text(HTMLParser):
    """The text of a page as a reader or an indexer gets it: text nodes only, no attribute
    (data-sealed is one), no script or style."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        self.skipping += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.skipping -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def _words(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)
    return " " + " ".join(re.findall(r"[a-z0-9]+", " ".join(parser.parts).lower())) + " "


def _phrases(hint_html: str) -> list[str]:
    """Every run of 8 words of a hint between its formulas (a shorter run whole, from 5 words)."""
    phrases = []
    for part in re.split(r"\\\(.*?\\\)", hint_html):
        words = _words(part).split()
        size = min(8, len(words))
        if size >= 5:
            phrases += [
                " " + " ".join(words[i : i + size]) + " " for i in range(len(words) - size + 1)
            ]
    return phrases


def test_every_hint_is_sealed_out_of_the_pages_and_the_search_index(site):
    pages = [path.read_text(encoding="utf-8") for path in site.rglob("index.html")]
    visible = "".join(_words(page) for page in pages)
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    searchable = "".join(_words(doc["title"] + " " + doc["text"]) for doc in index["docs"])
    hints = [
        hint
        for page in pages
        for sealed in re.findall(r'data-sealed="([^"]*)"', page)
        for hint in unseal(html.unescape(sealed)).get("hints", [])
    ]
    assert len(hints) >= 2 * 38  # level 19's questions give two hints or more on average
    assert " post norm " in visible and " post norm " in searchable  # the reading works
    for hint in hints:
        phrases = _phrases(hint)
        assert phrases, hint
        for phrase in phrases:
            assert phrase not in visible, f"a hint stands in a page: {phrase}"
            assert phrase not in searchable, f"a hint is in the search index: {phrase}"


def write_page(tmp_path: Path, body: str) -> Path:
    docs = tmp_path / "docs"
    (docs / "unit").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "unit/broken.md").write_text(f"# Broken\n\n{body}\n", encoding="utf-8")
    return docs


BAD_FENCES = {
    "not yaml": ("```lab\nlab: rope\nid: [unclosed\n```", "not valid YAML"),
    "not a mapping": ("```lab\njust words\n```", "must be YAML settings"),
    "unknown lab": (
        "```lab\nlab: ropes\nid: r1\n```",
        "unknown lab 'ropes' (did you mean 'rope'?)",
    ),
    "unknown option": ("```lab\nlab: rope\nid: r1\nspeed: 3\n```", "unknown option 'speed'"),
    "out of range": ("```lab\nlab: rope\nid: r1\nq_pos: 99\n```", "q_pos must lie in"),
    "bad id": ("```lab\nlab: rope\nid: Rope One\n```", "id must be lowercase"),
    "duplicate id": (
        "```lab\nlab: rope\nid: r1\n```\n\n```lab\nlab: rope\nid: r1\n```",
        "'r1' is used twice",
    ),
    "numeric without answer": (
        "```numeric\nid: q1\nprompt: How many?\n```",
        "missing option 'answer'",
    ),
    "numeric unknown option": (
        "```numeric\nid: q1\nprompt: P\nanswer: 3\ntolerance: 1\n```",
        "unknown option 'tolerance'",
    ),
    "numeric unreadable answer": (
        "```numeric\nid: q1\nprompt: P\nanswer: three\n```",
        "answer 'three'",
    ),
    "numeric wrong that is right": (
        "```numeric\nid: q1\nprompt: P\nanswer: 0.84\ndecimals: 2\nwrong:\n"
        "  - answer: 0.842\n    message: M\n```",
        "would count as right",
    ),
    "choice without a correct option": (
        "```choice\nid: q1\nprompt: P\noptions:\n  - text: a\n    why: w\n"
        "  - text: b\n    why: w\n```",
        "exactly one option must be marked correct",
    ),
    "choice option without why": (
        "```choice\nid: q1\nprompt: P\noptions:\n  - text: a\n    correct: true\n"
        "  - text: b\n    why: w\n```",
        "option 1 needs text and why",
    ),
    "code unknown question": (
        "```code\nid: c1\nquestion: softmax\nprompt: P\n```",
        "unknown code question 'softmax'",
    ),
    "question id twice": (
        "```numeric\nid: q1\nprompt: P\nanswer: 1\n```\n\n"
        "```numeric\nid: q1\nprompt: P\nanswer: 2\n```",
        "'q1' is used twice",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FENCES))
def test_a_malformed_fence_fails_the_build_naming_page_and_problem(tmp_path, case):
    body, problem = BAD_FENCES[case]
    result = build(tmp_path / "site", write_page(tmp_path, body))
    assert result.returncode != 0
    assert "unit/broken.md" in result.stderr
    assert problem in result.stderr
