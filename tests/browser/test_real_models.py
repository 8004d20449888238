"""The real models lab, driven as a student would: pick a model, read where its weights are.

Expected texts come from the same Python view the worker runs; the published total of
LLaMA-2-7B is asserted as the page shows it.
"""

import re

import pytest
from playwright.sync_api import expect

from livelab.labs import lab_view

pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
LIVE = re.compile("^Live:")


def open_lab(page, site):
    page.goto(site.url(LESSON))
    el = page.locator('[data-lab="real-models"]')
    expect(el.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    return el


def test_picking_llama_2_shows_its_published_total_and_an_untied_output_layer(page, site):
    el = open_lab(page, site)
    total = el.get_by_role("status", name="Parameters in all")
    expect(total).to_have_text("134,515,008")  # SmolLM2-135M, the lab's first model
    el.get_by_label("LLaMA-2-7B", exact=True).check()
    expect(total).to_have_text("6,738,415,616")
    rows = lab_view("real_models", {"model": "llama-2-7b"})["view"]["rows"]["parts"]
    output = el.locator("tbody[data-rows='parts'] tr").filter(has_text="Output layer")
    expect(output).to_contain_text(rows[-2][1])
    expect(el.locator('[data-text="heads"]')).to_have_text(
        "32 query heads, each with its own KV head"
    )


def test_qwen2_shows_grouped_heads_its_wide_ffn_and_its_slow_rope(page, site):
    el = open_lab(page, site)
    el.get_by_label("Qwen2-7B", exact=True).check()
    text = lab_view("real_models", {"model": "qwen2-7b"})["view"]["text"]
    expect(el.get_by_role("status", name="Parameters in all")).to_have_text("7,615,616,512")
    for name in ("heads", "ffn_ratio", "kv_cache", "period"):
        expect(el.locator(f'[data-text="{name}"]')).to_have_text(text[name])
