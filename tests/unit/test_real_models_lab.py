"""The real models lab, and the config questions of section G, against the config kernels.

The questions' fences are read from the lesson page as the build reads them (from
section-g.md beside the repository's root while that section waits to be inserted).
"""

import re
from pathlib import Path

import numpy as np
import pytest

from labs import real_models
from labs.kernels import kv_cache_per_token, model_config, parameter_count, parameter_parts
from livelab.builder.fences import parse_body
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.labs import lab_view

ROOT = Path(__file__).resolve().parents[2]
LESSON = (ROOT / "docs" / "level-19" / "modern-blocks.md").read_text(encoding="utf-8")
PAGE = (
    LESSON
    if "id: capstone-params" in LESSON
    else (ROOT / "section-g.md").read_text(encoding="utf-8")
)
ORDER = ("config-mistral-ffn", "config-kv-cache", "config-rope-period", "capstone-params")


def numeric(qid: str):
    for body in re.findall(r"^```numeric\n(.*?)^```", PAGE, re.MULTILINE | re.DOTALL):
        data = parse_body(body)
        if data["id"] == qid:
            return NUMERIC.question(data)
    raise AssertionError(f"no numeric fence with id {qid}")


def view(model: str = "") -> dict:
    return lab_view("real_models", {"model": model} if model else {})["view"]


@pytest.mark.parametrize("model", [key for key, _ in real_models.CHOICES])
def test_the_table_lists_every_part_and_its_rows_add_up_to_the_total(model):
    v = view(model)
    rows = v["rows"]["parts"]
    counts = [int(row[1].replace(",", "")) for row in rows]
    assert counts[:-1] == list(parameter_parts(model_config(model)).values())
    assert sum(counts[:-1]) == counts[-1] == parameter_count(model_config(model))
    assert v["text"]["total"] == f"{counts[-1]:,}"
    shares = [float(row[2].rstrip("%")) for row in rows[:-1]]
    assert sum(shares) == pytest.approx(100, abs=0.05)


def test_the_bars_are_as_long_as_the_shares_and_labelled_with_them():
    v = view("llama-3-8b")
    bars = [s for s in v["svg"]["bars"] if s["tag"] == "rect"]
    labels = [s["text"] for s in v["svg"]["bars"] if s["tag"] == "text"]
    widths = np.array([float(b["attrs"]["width"]) for b in bars])
    parts = np.array(list(parameter_parts(model_config("llama-3-8b")).values()))
    assert np.allclose(widths / widths.sum(), parts / parts.sum(), atol=1e-3)
    assert [label.split(":")[-1].strip() for label in labels] == [
        row[2] for row in v["rows"]["parts"][:-1]
    ]


def test_tied_embeddings_show_an_output_layer_of_nothing():
    rows = {row[0]: row for row in view("smollm2-135m")["rows"]["parts"]}
    assert rows["Output layer"][1:] == ["0", "0.00%", "tied: reuses the embeddings"]


def test_the_readouts_give_grouping_ffn_width_and_the_slowest_period():
    text = view("qwen2-7b")["text"]
    assert text["heads"] == "28 query heads share 4 KV heads: 7 per KV head"
    assert text["ffn_ratio"].startswith("18944 / 3584 = 5.29")
    assert text["rope_theta"] == "1,000,000"
    assert text["period"] == "about 5,063,256 positions (head width 128)"
    assert view("llama-2-7b")["text"]["heads"] == "32 query heads, each with its own KV head"


def test_the_config_questions_are_answered_by_the_configs():
    mistral = model_config("mistral-7b")
    ratio = mistral["intermediate_size"] / mistral["hidden_size"]
    assert numeric("config-mistral-ffn").spec.answer == pytest.approx(ratio)
    assert numeric("config-kv-cache").spec.answer == kv_cache_per_token(mistral)
    qwen = model_config("qwen2-7b")
    d_k = qwen["hidden_size"] // qwen["num_attention_heads"]
    periods = 2 * np.pi * qwen["rope_theta"] ** (2 * np.arange(d_k // 2) / d_k)  # [d_k / 2]
    assert numeric("config-rope-period").spec.answer == np.sum(periods > 32768)
    total = parameter_count(model_config("llama-2-7b"))
    capstone = numeric("capstone-params")
    assert capstone.spec.close(total / 1e6, capstone.spec.answer)
    assert capstone.spec.tolerance * 1e6 <= 50_001  # the prompt's "within 50,000 parameters"


def test_no_lab_default_answers_a_question_before_it_is_asked():
    """The lab opens on a model whose numbers answer none of the questions above it."""
    assert real_models.PARAMS["model"].default == "smollm2-135m"
    shown = " ".join(view()["text"].values()) + str(view()["rows"])
    for qid in ORDER:
        spec = numeric(qid).spec
        decimals = spec.decimals or 0
        number = re.escape(f"{spec.answer:,.{decimals}f}")
        assert not re.search(rf"(?<![\d.,]){number}(?![\d,]|\.\d)", shown), qid


def test_on_the_page_every_config_question_comes_before_the_lab():
    lab_at = PAGE.index("lab: real_models")
    assert all(PAGE.index(f"id: {qid}\n") < lab_at for qid in ORDER)
    assert PAGE.index("id: config-largest-part") < PAGE.index("id: capstone-params")
