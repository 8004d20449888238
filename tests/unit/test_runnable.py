"""Runnable code blocks (issue 34): the fence that makes one, and the namespaces they run in."""

import markdown
import pytest

from livelab import scratch
from livelab.builder import extension

PAGE = """# A page

```python
plain = 1
```

```python run="on"
x = np.arange(3)
x * 2 < 5
```

```python run="on"
x.sum()
```
"""


def convert(text: str) -> str:
    extension.start_session()
    md = markdown.Markdown(extensions=["pymdownx.superfences", extension.NAME])
    return md.convert(text)


def test_a_plain_python_fence_stays_highlighted_code_and_run_on_makes_a_block():
    html = convert(PAGE)
    assert html.count('data-livelab="runnable"') == 2
    assert 'id="run-1"' in html and 'id="run-2"' in html
    assert 'aria-label="Runnable Python, block 2"' in html
    assert '<span class="n">plain</span>' in html  # Pygments still has the plain one
    assert "x * 2 &lt; 5" in html  # the code as text, escaped
    assert html.count('data-action="run"') == 2


@pytest.mark.parametrize(
    ("header", "said"),
    [
        ('run="yes"', "run must be \"on\" to make the block runnable, got 'yes'"),
        ('run="on" title="x"', "a runnable python fence takes only run=\"on\", not ['title']"),
    ],
)
def test_a_wrong_header_stops_the_build_naming_its_line(header, said):
    with pytest.raises(extension.AuthoringError) as caught:
        convert(f"# P\n\nText.\n\n```python {header}\ny = 2\n```\n")
    assert f"?:5: python fence 'run-1': {said}" in str(caught.value)


def test_a_pages_blocks_share_names_apart_from_the_scratchpad_and_other_pages():
    one, other = "blocks:test/one/", "blocks:test/two/"
    scratch.clear(one)
    scratch.clear(other)
    assert scratch.run("x = 41", one)["error"] is None
    assert scratch.run("x + 1", one)["output"] == "42\n"
    assert scratch.run("x", other)["error"]["type"] == "NameError"
    assert "x" not in scratch.names()  # the scratchpad's own namespace
    scratch.clear(one)
    assert "x" not in scratch.names(one)
    assert "np" in scratch.names(one)


def test_only_so_many_namespaces_are_kept_and_the_scratchpads_never_goes():
    scratch.run("kept = 1")
    for index in range(scratch.SPACES_KEPT + 3):
        scratch.run(f"y = {index}", f"blocks:many/{index}/")
    assert "kept" in scratch.names()
    assert scratch.run("y", "blocks:many/0/")["error"]["type"] == "NameError"  # went first
    last = f"blocks:many/{scratch.SPACES_KEPT + 2}/"
    assert scratch.run("y", last)["output"] == f"{scratch.SPACES_KEPT + 2}\n"
