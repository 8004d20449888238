"""A page change by link, timed to the first result of an input the lab has not seen."""

from __future__ import annotations

# On every document of a round: once a click's time is recorded, on the worked examples the
# modern block lab's T field is set to sessionStorage's __newInputT as soon as it is enabled
# (and again each 16 ms until the lab answers: an input before its lab listens is lost), and
# __newInputAt is when the lab's text first says "T = <value>" (times since the epoch, so the
# same across a full page load, should the click make one).
NEW_INPUT_PROBE = """
document.addEventListener("click", () => {
  sessionStorage.setItem("__clickAt", String(performance.timeOrigin + performance.now()));
}, true);
(function tick() {
  const value = sessionStorage.getItem("__newInputT");
  const lab = location.pathname.includes("worked-examples")
    && [...document.querySelectorAll('[data-lab-kind="modern_block"]')].find((l) => !l.__before);
  if (value && lab) {
    if (lab.querySelector('[data-text="shown"]')?.textContent.includes(`T = ${value} tokens`)) {
      sessionStorage.removeItem("__newInputT");
      sessionStorage.setItem("__newInputAt", String(performance.timeOrigin + performance.now()));
    } else {
      const field = lab.querySelector('input[data-param="tokens"]');
      if (field && !field.disabled) {
        if (sessionStorage.getItem("__fieldAt") === null) {
          sessionStorage.setItem("__fieldAt", String(performance.timeOrigin + performance.now()));
        }
        field.value = value;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
  }
  setTimeout(tick, 16);
})();
"""


def link_to_new_input_ms(page, tokens: int) -> float:
    """From the lesson, a click on the worked examples' link -> the first view of its modern
    block lab for T = tokens (a value this tab's labs have not been asked for)."""
    page.evaluate(
        "(t) => { sessionStorage.removeItem('__newInputAt');"
        " sessionStorage.removeItem('__fieldAt');"
        " document.querySelectorAll('[data-lab]').forEach((l) => (l.__before = true));"
        " sessionStorage.setItem('__newInputT', t); }",
        str(tokens),
    )
    page.get_by_role("link", name="Worked examples and exercises").first.click()
    page.wait_for_function("sessionStorage.getItem('__newInputAt') !== null", timeout=60_000)
    return page.evaluate(
        "Number(sessionStorage.getItem('__newInputAt'))"
        " - Number(sessionStorage.getItem('__clickAt'))"
    )


def field_enabled_ms(page) -> float:
    """After link_to_new_input_ms: the click -> the lab's T field first found enabled."""
    return page.evaluate(
        "Number(sessionStorage.getItem('__fieldAt')) - Number(sessionStorage.getItem('__clickAt'))"
    )
