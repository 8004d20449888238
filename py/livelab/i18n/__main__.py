"""`python -m livelab.i18n`: write web/strings.js, the English table the Node tests read."""

from livelab import i18n

target = i18n.HERE.parent / "web" / i18n.STRINGS_JS
target.write_text(i18n.strings_module(i18n.DEFAULT), encoding="utf-8")
print(f"wrote {target}")
