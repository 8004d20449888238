"""Every page starts Python's worker from its first lines, before the browser parses the rest.

The page loads `runtime/page/client.js` as an async module in <head>, but the browser runs it only
once the parser yields, after the page's long body is parsed: on the lesson page, 200-300 ms
after the HTML arrived, all of it before Python could start. So `finish` puts a small inline
script right after the page's charset: it creates the worker at once, at the address
client.js would use, and keeps its messages until client.js adopts it (runtime/page/client.js,
`adoptEarlyWorker`). A page that has no client.js gets nothing. Both builders write the
script tag (Material's `polyfills` slot), so this runs on the built HTML, like footer.py.

The same script shows the service worker's sentence when a script of the page has no good
copy offline (unavailable_note.js); it tells the labs that JavaScript runs, so they say Python
is loading and take input before their modules arrive (early_labs.js); and it leaves a link to
a place on the same page to the browser (same_page_links.js). (It no longer holds back
Material's search worker while Python starts: bench/reload_ab.py, 12 rounds on a loaded
machine, found reloads no faster with the hold, and it patched window.Worker on Material's
internals.)

The script starts no second worker: it does nothing once client.js runs in the tab (instant
navigation evaluates no head script anyway), and client.js starts its own worker when there
was none to adopt or it is for another address.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from livelab.builder.addresses import AFTER as AFTER_ADDRESS
from livelab.builder.built_pages import rewrite_pages

MARK = 'id="livelab-early-worker"'
CLIENT_TAG = re.compile(r'<script\b[^>]*\bsrc="([^"]*?)runtime/page/client\.js"[^>]*>')
CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.I)
HEAD = re.compile(r"<head\b[^>]*>", re.I)
# What client.js reads: worker, url, at (performance.now() when it was created), messages
# (every message the worker sent before adoption, in order) and failed (its script did not
# load). A global that is present, even null, means client.js runs in this tab already.
SCRIPT = (
    "<script " + MARK + ">(() => {"
    'if ("__livelabEarly" in self || !self.Worker) return;'
    "const url = new URL(%s, document.baseURI).href;"
    "const early = { url, at: performance.now(), messages: [], failed: false };"
    "try {"
    'early.worker = new Worker(url, { type: "module", name: "livelab-python" });'
    "} catch (err) { return; }"
    "early.worker.onmessage = (event) => early.messages.push(event.data);"
    "early.worker.onerror = (event) => { event.preventDefault(); early.failed = true; };"
    "self.__livelabEarly = early;"
    "})();</script>"
)


# Then what shows the service worker's sentence about a file of the page it could not serve
# (unavailable_note.js says why it is inline).
UNAVAILABLE_NOTE = Path(__file__).with_name("unavailable_note.js").read_text(encoding="utf-8")
UNAVAILABLE_NOTE = UNAVAILABLE_NOTE[UNAVAILABLE_NOTE.index("(() => {") :].strip()
# Then what tells a lab that JavaScript runs and opens its controls early (early_labs.js).
LABS_EARLY = Path(__file__).with_name("early_labs.js").read_text(encoding="utf-8")
LABS_EARLY = LABS_EARLY[LABS_EARLY.index("(() => {") :].strip()
# Then what keeps links to a place on the page away from Material (same_page_links.js).
SAME_PAGE = Path(__file__).with_name("same_page_links.js").read_text(encoding="utf-8")
SAME_PAGE = SAME_PAGE[SAME_PAGE.index("(() => {") :].strip()


def early_script(page: str) -> str | None:
    """The inline script for a built page, or None if the page loads no runtime client."""
    client = CLIENT_TAG.search(page)
    if client is None:
        return None
    script = SCRIPT % json.dumps(f"{client.group(1)}runtime/worker/worker.js")
    return script.replace(
        "</script>", f"\n{UNAVAILABLE_NOTE}\n{LABS_EARLY}\n{SAME_PAGE}\n</script>"
    )


def with_early_worker(page: str) -> str:
    """The page with the inline script after its charset (or <head>), if it needs one; after
    the address script when the page has it (livelab.builder.addresses), since the worker's
    address is resolved from the page's."""
    if MARK in page:
        return page
    script = early_script(page)
    anchor = AFTER_ADDRESS.search(page) or CHARSET.search(page) or HEAD.search(page)
    if script is None or anchor is None:
        return page
    return page[: anchor.end()] + script + page[anchor.end() :]


def start_workers_early(site_dir: Path) -> int:
    """Give every built page that loads the runtime client the inline script; return how many."""
    return rewrite_pages(site_dir, with_early_worker)
