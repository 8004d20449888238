"""The words of a lab's own chrome, in the site's language (livelab.i18n): Run and Stop with
the line under them, the status line while Python starts or without JavaScript, and "Open in
scratchpad". livelab.labs.markup puts them around each lab's body."""

from __future__ import annotations

import html

from livelab import i18n


def run_buttons() -> str:
    """Run and Stop for a lab that runs (widgets/lab-run.js), and the line that says, as a live
    region, what a run does; until the student runs it, that the curves are the build's."""
    run, stop = html.escape(i18n.text("markup.run")), html.escape(i18n.text("markup.stop"))
    return (
        '<div class="livelab-lab__run">'
        f'<button type="button" class="livelab-button" data-run disabled>{run}</button> '
        f'<button type="button" class="livelab-button" data-stop disabled>{stop}</button></div>'
        '<p class="livelab-run-status" data-run-status aria-live="polite">'
        f"{html.escape(i18n.text('markup.run_status_built'))}</p>"
    )


def status_line() -> str:
    """A lab's status line: the <noscript> line a reader without JavaScript sees, and the line
    shown while Python starts (widgets/status.js reads it from the page)."""
    # With JavaScript the page's first script marks <html class="livelab-js"> and the
    # stylesheet shows the loading line instead (builder/early_labs.js); the widget keeps that
    # wording while Python starts.
    starting = html.escape(i18n.text("markup.lab_starting"))
    return (
        '<p class="livelab-status" data-status aria-live="polite">'
        f"<noscript>{html.escape(i18n.text('markup.lab_needs_js'))}</noscript>"
        f'<span class="livelab-status__early" data-starting>{starting}</span></p>'
    )


def scratch_button() -> str:
    """ "Open in scratchpad", built into a lab with scratch code so nothing moves later."""
    name = html.escape(i18n.text("markup.open_scratchpad"))
    return (
        '<div class="livelab-lab__tools"><button type="button" class="livelab-button" '
        f"data-scratch disabled>{name}</button></div>"
    )
