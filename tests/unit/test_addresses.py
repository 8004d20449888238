"""Every built page moves itself to its own address first (livelab.builder.addresses), and the
service worker gets the same rule; the browser side is tests/browser/test_addresses.py."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from livelab.builder import addresses, early, offline

CLIENT = '<script src="../../assets/livelab/runtime/page/client.js" type="module" async></script>'
HEAD = '<html><head>\n<meta charset="utf-8">\n<title>A page</title>\n{}</head><body></body></html>'
# Runs a page's address script with this location; prints what replaceState was given.
RUN_IN_NODE = """
const [protocol, pathname, search, hash] = %s;
globalThis.location = { protocol, pathname, search, hash };
const replaceState = (...args) => console.log(JSON.stringify(args));
globalThis.history = { state: { kept: 1 }, replaceState };
%s
"""


def write(site: Path, path: str, text: str) -> Path:
    file = site / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def script_body(page: str) -> str:
    start = page.index(f"<script {addresses.MARK}>") + len(f"<script {addresses.MARK}>")
    return page[start : page.index("</script>", start)]


def test_the_script_comes_right_after_the_charset_before_the_early_worker_either_way():
    charset = '<meta charset="utf-8">'
    for page in (
        early.with_early_worker(addresses.with_address_script(HEAD.format(CLIENT))),
        addresses.with_address_script(early.with_early_worker(HEAD.format(CLIENT))),
    ):
        after_charset = page[page.index(charset) + len(charset) :]
        assert after_charset.startswith(f"<script {addresses.MARK}>")
        assert page.index(addresses.MARK) < page.index(early.MARK) < page.index("<title>")


def test_the_script_is_the_rule_of_address_js_as_a_classic_script():
    body = script_body(addresses.with_address_script(HEAD.format("")))
    assert "export" not in body and "import" not in body
    assert "function canonicalPath(pathname)" in body
    rule = addresses.ADDRESS_JS.read_text(encoding="utf-8")
    assert "export function canonicalPath(pathname)" in rule  # one source, shipped as a module


@pytest.mark.parametrize(
    ("location", "replaced"),
    [
        (
            ["http:", "//level-19/modern-blocks/", "?ref=x", "#rope"],
            "/level-19/modern-blocks/?ref=x#rope",
        ),
        (["https:", "/level-19//modern-blocks/", "", ""], "/level-19/modern-blocks/"),
        (["http:", "/level-19/modern-blocks/index.html", "", ""], "/level-19/modern-blocks/"),
        (["http:", "/level-19/modern-blocks/", "?ref=x", ""], None),
        (["file:", "/home/me/site/level-19/modern-blocks/index.html", "", ""], None),
    ],
)
def test_the_script_replaces_an_odd_address_with_the_pages_own_keeping_the_rest(location, replaced):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    body = script_body(addresses.with_address_script(HEAD.format("")))
    program = RUN_IN_NODE % (json.dumps(location), body)
    result = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True)
    calls = [json.loads(line) for line in result.stdout.splitlines()]
    assert calls == ([] if replaced is None else [[{"kept": 1}, "", replaced]])


def test_every_page_gets_the_script_once(tmp_path):
    lesson = write(tmp_path, "a/b/index.html", HEAD.format(CLIENT))
    plain = write(tmp_path, "404.html", HEAD.format(""))
    write(tmp_path, "notes.txt", "not a page")
    assert addresses.canonical_addresses(tmp_path) == 2
    assert addresses.canonical_addresses(tmp_path) == 0
    for page in (lesson, plain):
        assert page.read_text(encoding="utf-8").count(addresses.MARK) == 1


def test_the_service_worker_has_the_same_rule_between_its_build_line_and_its_code(tmp_path):
    site = write(tmp_path, "site/index.html", HEAD.format("")).parent
    template = write(tmp_path, "sw-template.js", "self.addEventListener('fetch', () => {});\n")
    sw = offline.write_service_worker(site, template, None, "wb/").read_text(encoding="utf-8")
    rule = sw.index(addresses.classic_source())
    assert sw.index("const BUILD = ") < rule < sw.index(template.read_text(encoding="utf-8"))
