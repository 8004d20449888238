"""The modern block lab: the figure from the shipped config, the run, and bad configs."""

import json
from pathlib import Path

import numpy as np
import pytest

import labs
from labs import modern_block as lab
from labs.kernels import MODERN_CONFIG, init_params, modern_block, rope, validate_config
from labs.modern_block_figure import COLUMNS, STEP_ROWS
from livelab.labs import lab_view

CONFIG_FILE = Path(labs.__file__).parent / "modern-config.json"


def params(**changes):
    return lab.PARAMS.coerce(changes)


def figure_rows(view):
    """The figure's rows as the page shows them: [step, shape, shape in the run, numbers]."""
    text = view["text"]
    return [[text[f"step-{i}-{column}"] for column in COLUMNS] for i in range(STEP_ROWS)]


def test_the_shipped_config_has_the_fields_of_the_chapter():
    config = json.loads(CONFIG_FILE.read_text(encoding="utf-8"))
    assert config == {
        "hidden_size": 12,
        "query_heads": 3,
        "head_dim": 4,
        "ffn_hidden_size": 32,
        "rope_theta": 10000,
        "pre_norm": True,
        "bias": False,
        "max_sequence_slots": 2048,
        "eps": 1e-6,
    }


def test_the_kernels_and_the_lab_read_that_one_file():
    config = json.loads(CONFIG_FILE.read_text(encoding="utf-8"))
    assert dict(MODERN_CONFIG) == config
    assert lab.config_of(params()) == config


def test_the_figure_runs_from_x_to_the_output_with_the_chapters_shapes():
    steps = lab.state(**params())["steps"]
    shapes = [(s["label"], s["shape"]) for s in steps]
    assert shapes[0] == ("X, the input", "[B, T, 12]")
    assert shapes[-1][1] == "[B, T, 12]"
    labels = " | ".join(s["label"] for s in steps)
    for part in (
        "RMSNorm",
        "3 heads × 4",
        "RoPE on Q and K",
        "causal attention",
        "join the heads",
        "output projection [12, 12]",
        "+ X",
        "gate [12, 32] and up [12, 32]",
        "SiLU(gate) ⊙ up",
        "down [32, 12]",
        "+ R",
    ):
        assert part in labels
    assert [s["kind"] for s in steps].count("norm") == 2


def test_the_symbolic_shapes_are_the_kernels_shapes_for_every_step():
    s = lab.state(**params(run=True, batch=3, tokens=5))
    for step in s["steps"]:
        symbolic = step["shape"].removesuffix(" each")
        actual = "[" + ", ".join(map(str, s["shapes"][step["key"]])) + "]"
        assert symbolic.replace("B", "3").replace("T", "5") == actual, step["key"]


def test_six_heads_of_two_redraw_the_figure_and_the_run():
    s = lab.state(**params(query_heads=6, head_dim=2, run=True))
    assert s["error"] == ""
    qkv = next(st for st in s["steps"] if st["key"] == "q")
    assert qkv["label"].endswith("6 heads × 2")
    assert qkv["shape"] == "[B, 6, T, 2] each"
    assert s["shapes"]["q"] == [2, 6, 4, 2]


def test_the_run_is_the_kernels_forward_pass_on_the_seeded_input():
    p = params(run=True, seed=7)
    s = lab.state(**p)
    config = lab.config_of(p)
    x = np.random.default_rng((7, 1)).standard_normal((2, 4, 12))
    out = modern_block(x, init_params(config, 7), config)
    np.testing.assert_allclose(s["rows"]["out"], out[0, -1])  # sequence 0, the last token
    assert s["shapes"]["out"] == [2, 4, 12]


def test_the_rope_row_is_the_q_row_turned_to_the_last_tokens_position():
    tokens = 5
    s = lab.state(**params(run=True, tokens=tokens))
    q_row, turned = np.array(s["rows"]["q"]), np.array(s["rows"]["q_rot"])
    expected = rope(q_row[None, :], positions=[tokens - 1], base=MODERN_CONFIG["rope_theta"])[0]
    np.testing.assert_allclose(turned, expected)
    assert not np.allclose(turned, q_row)  # at token 0 the two rows would be equal


def test_the_table_says_which_token_it_shows():
    text = lab.view(lab.state(**params(run=True, tokens=6)))["text"]
    assert "token 5, the last of the T = 6 tokens" in text["shown"]
    assert "the row of token 5 starts" in text["summary"]
    single = lab.view(lab.state(**params(run=True, tokens=1)))["text"]["shown"]
    assert "RoPE turns by nothing" in single


def test_the_attention_weights_shown_are_a_row_that_sums_to_one():
    s = lab.state(**params(run=True, tokens=6))
    assert len(s["rows"]["weights"]) == 6
    assert sum(s["rows"]["weights"]) == pytest.approx(1.0)


def test_before_the_run_the_figure_shows_shapes_and_no_numbers():
    view = lab.view(lab.state(**params()))
    assert view["text"]["summary"] == "Not run yet: press Run the block."
    rows = figure_rows(view)
    assert [row[:2] for row in rows][:2] == [
        ["X, the input", "[B, T, 12]"],
        ["RMSNorm (eps 1e-06)", "[B, T, 12]"],
    ]
    assert all(row[2:] == ["", ""] for row in rows)  # empty cells take no room in a box


def test_after_the_run_every_box_shows_its_shape_and_first_numbers():
    s = lab.state(**params(run=True, tokens=5))
    view = lab.view(s)
    assert view["text"]["summary"].startswith("Ran one block on a seeded X of shape (2, 5, 12)")
    rows = figure_rows(view)
    for row, step in zip(rows, s["steps"], strict=True):
        assert row[2] == "(" + ", ".join(map(str, s["shapes"][step["key"]])) + ")"
        shown = [float(v) for v in row[3].strip("[]").replace(", …", "").split(", ")]
        np.testing.assert_allclose(shown, s["rows"][step["key"]][: lab.SHOWN_NUMBERS], atol=0.005)
    assert rows[3][2] == "(2, 3, 5, 4)"  # RoPE on Q and K: B, heads, T, head_dim


@pytest.mark.parametrize("pre_norm", [True, False])
def test_the_figure_is_one_row_per_step_coloured_by_kind_with_two_residual_lanes(pre_norm):
    s = lab.state(**params(pre_norm=pre_norm))
    view = lab.view(s)
    assert len(s["steps"]) == STEP_ROWS  # the page builds this many rows once
    classes = [view["attrs"][f"step-{i}"]["class"].split() for i in range(STEP_ROWS)]
    for css, step in zip(classes, s["steps"], strict=True):
        assert f"livelab-step--{step['kind']}" in css
    starts = [i for i, css in enumerate(classes) if "livelab-lane-from" in css]
    ends = [i for i, css in enumerate(classes) if "livelab-lane-to" in css]
    assert [s["steps"][i]["kind"] for i in ends] == ["add", "add"]  # each lane ends in a +
    assert starts[0] == 0 and s["steps"][starts[1]]["key"] == "residual"  # from X, then R
    for start, end in zip(starts, ends, strict=True):
        assert all("livelab-lane-on" in classes[i] for i in range(start + 1, end))


def test_the_seeded_input_is_summed_up_in_its_folded_line():
    text = lab.view(lab.state(**params(batch=3, tokens=7, seed=12)))["text"]
    assert text["seeded"] == "B = 3, T = 7, seed 12"


def test_post_norm_puts_the_norms_after_the_additions():
    steps = lab.state(**params(pre_norm=False))["steps"]
    keys = [s["key"] for s in steps]
    assert keys.index("attn_sum") + 1 == keys.index("residual")
    assert steps[-1]["kind"] == "norm"


def test_bias_shows_in_the_projection_labels():
    steps = lab.state(**params(bias=True))["steps"]
    assert any("+ b" in s["label"] for s in steps)


def test_heads_times_head_dim_not_hidden_size_gives_a_message_and_no_drawing():
    view = lab_view("modern_block", {"query_heads": 4})["view"]
    assert "query_heads * head_dim = 4 * 4 = 16 must equal hidden_size = 12" in view["error"]
    assert "attrs" not in view  # the page keeps its last good figure
    assert not any(name.startswith("step-") for name in view["text"])


def test_four_heads_of_three_redraw_the_figure_and_run():
    view = lab_view("modern_block", {"query_heads": 4, "head_dim": 3, "run": True})["view"]
    assert not view.get("error")
    assert figure_rows(view)[2][0] == "Q, K, V: 4 heads × 3"
    assert figure_rows(view)[2][3].startswith("[")


def test_more_tokens_than_sequence_slots_is_explained():
    view = lab_view("modern_block", {"tokens": 8, "max_sequence_slots": 4})["view"]
    assert "do not fit in max_sequence_slots = 4" in view["error"]


def test_every_accepted_config_is_one_the_kernels_accept():
    for changes in ({}, {"pre_norm": False}, {"bias": True}, {"rope_theta": 500000.0}):
        validate_config(lab.config_of(params(**changes)))


def test_an_empty_field_is_refused_with_its_name():
    with pytest.raises(ValueError, match="hidden_size needs a number"):
        lab_view("modern_block", {"hidden_size": None})


def test_a_lab_fence_whose_config_the_kernels_refuse_fails_the_build_naming_the_fence():
    from livelab.builder.fences import FenceContext, custom_fences

    context = FenceContext()
    context.start("level-19/modern-blocks.md")
    fence = next(entry for entry in custom_fences(context) if entry["name"] == "lab")
    shown = fence["format"]("lab: modern_block\nid: block\nquery_heads: 4\n", "lab", "", {}, None)
    (error,) = context.errors
    assert error.startswith("level-19/modern-blocks.md: lab fence id 'block': ")
    assert "query_heads * head_dim = 4 * 4 = 16 must equal hidden_size = 12" in error
    assert 'role="alert"' in shown and "data-lab=" not in shown
