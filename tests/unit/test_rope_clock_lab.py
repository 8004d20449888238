"""The RoPE clock lab: per-pair rates, the seeded demo, the score by offset, the base."""

import itertools
import math
import re
import time

import numpy as np
import pytest

from labs import rope, rope_clock, rope_clock_face
from labs.kernels import rope_score
from livelab.labs import lab, lab_view
from livelab.labs.markup import Marks, lab_html
from livelab.labs.view import largest_em


def test_the_seeded_demo_scores_one_point_zero_five_eight_five_at_seven_and_four():
    s = rope_clock.LAB.compute(q_pos=7, k_pos=4)
    assert s["score"] == pytest.approx(1.058526, abs=5e-7)
    assert rope_clock.view(s)["text"]["score"] == "1.058526"


def test_the_same_score_a_hundred_positions_later():
    s = rope_clock.LAB.compute(q_pos=107, k_pos=104)
    assert rope_clock.view(s)["text"]["score"] == "1.058526"


def test_q_and_k_are_those_of_the_rope_lab_demo():
    s = rope_clock.LAB.compute()
    demo = rope.seeded_demo()
    np.testing.assert_allclose(s["q"], demo["q"])
    np.testing.assert_allclose(s["k"], demo["k"])


def test_a_head_of_width_four_turns_at_one_and_a_hundredth():
    s = rope_clock.LAB.compute(d_k=4)
    np.testing.assert_allclose(s["rates"], [1.0, 0.01])
    assert rope_clock.view(s)["text"]["rates"] == "1, 0.01"


def _hands(shapes):
    return [s["attrs"] for s in shapes if "livelab-clock-hand" in s["attrs"].get("class", "")]


@pytest.mark.parametrize("d_k", [2, 6, 16])
def test_one_face_with_one_long_hand_per_pair_at_the_gap_times_its_rate(d_k):
    s = rope_clock.LAB.compute(d_k=d_k, q_pos=30, k_pos=11)
    shapes = rope_clock_face.clock_shapes(s)
    hands = _hands(shapes)
    assert len(hands) == d_k // 2
    c = rope_clock_face.FACE_SIZE / 2
    for hand, rate in zip(hands, s["rates"], strict=True):
        dx, dy = float(hand["x2"]) - c, c - float(hand["y2"])
        assert np.hypot(dx, dy) >= 0.5 * rope_clock_face.FACE_RADIUS - 0.01  # no stubs
        turned = np.arctan2(dy, dx) - np.pi / 2  # counter-clockwise from the top
        assert np.cos(turned) == pytest.approx(np.cos(19 * rate), abs=1e-3)
        assert np.sin(turned) == pytest.approx(np.sin(19 * rate), abs=1e-3)
    numbers = [x["text"] for x in shapes if x["tag"] == "text"]
    assert numbers == [str(i) for i in range(d_k // 2)]


def test_moving_both_positions_leaves_every_hand_where_it_was():
    before = rope_clock.view(rope_clock.LAB.compute(d_k=8, q_pos=7, k_pos=4))
    after = rope_clock.view(rope_clock.LAB.compute(d_k=8, q_pos=1907, k_pos=1904))
    assert _hands(before["svg"]["clocks"]) == _hands(after["svg"]["clocks"])
    assert before["rows"]["pairs"] == after["rows"]["pairs"]


@pytest.mark.parametrize("d_k", [16, 34, 128])
@pytest.mark.parametrize(("q_pos", "k_pos"), [(7, 4), (4, 4), (2048, 0), (0, 1)])
def test_the_pair_numbers_never_sit_on_each_other(q_pos, k_pos, d_k):
    s = rope_clock.LAB.compute(d_k=d_k, q_pos=q_pos, k_pos=k_pos)
    shapes = rope_clock_face.clock_shapes(s)
    points = [
        (float(x["attrs"]["x"]), float(x["attrs"]["y"])) for x in shapes if x["tag"] == "text"
    ]
    nearest = min(np.hypot(a[0] - b[0], a[1] - b[1]) for a, b in itertools.combinations(points, 2))
    # LABEL_GAP radians on the ring: wider than a digit at the largest text size (16 px).
    assert nearest >= 2 * rope_clock_face.LABEL_RING * np.sin(rope_clock_face.LABEL_GAP / 2) - 0.01
    assert nearest > 24


def test_the_table_has_a_row_per_pair_with_its_turn_and_its_share_of_the_score():
    s = rope_clock.LAB.compute(d_k=6, q_pos=9, k_pos=2)
    rows = rope_clock.view(s)["rows"]["pairs"]
    assert [row[0] for row in rows] == ["pair 0", "pair 1", "pair 2"]
    for row, rate, share in zip(rows, s["rates"], s["pair_scores"], strict=True):
        assert float(row[2]) == pytest.approx((7 * rate) % (2 * np.pi), abs=0.005)
        assert float(row[3]) == pytest.approx(share, abs=0.0005)


def test_the_lowest_y_tick_is_clear_of_the_first_x_tick():
    shapes = rope_clock.score_shapes(rope_clock.LAB.compute())
    ticks = [x for x in shapes if x["tag"] == "text" and "livelab-tick" in x["attrs"]["class"]]
    # Rows are placed in em: at the largest text size (a phone) find each label's baseline.
    em = largest_em(rope_clock.PLOT_WIDTH)

    def baseline(tick):
        return float(tick["attrs"]["y"]) + em * float(tick["attrs"]["dy"].removesuffix("em"))

    row = max(baseline(t) for t in ticks)
    x_ticks = [t for t in ticks if baseline(t) == row]
    y_ticks = [t for t in ticks if baseline(t) != row]
    assert len(x_ticks) == 5 and len(y_ticks) == 3
    # The x row's tops (0.93 em above the baseline) lie below the lowest y label's descent.
    assert row - 0.93 * em > max(baseline(t) for t in y_ticks) + 0.25 * em


def test_the_pair_scores_add_up_to_the_score():
    s = rope_clock.LAB.compute(d_k=8, q_pos=30, k_pos=11, seed=5)
    assert sum(s["pair_scores"]) == pytest.approx(s["score"])


def test_the_score_by_offset_matches_the_kernel():
    s = rope_clock.LAB.compute(d_k=6, seed=2)
    q, k = np.array(s["q"]), np.array(s["k"])
    for d, value in zip(s["offsets"], s["scores_by_offset"], strict=True):
        assert value == pytest.approx(rope_score(q, k, 500 + d, 500))


def test_an_offset_outside_the_plot_is_said_in_words():
    view = rope_clock.view(rope_clock.LAB.compute(q_pos=200, k_pos=4))
    assert "outside the plotted range" in view["text"]["plot_note"]
    assert not any(s["tag"] == "circle" for s in view["svg"]["scores"])


def test_an_odd_width_is_refused():
    with pytest.raises(ValueError, match="d_k must be 2 plus a multiple of 2, got 3"):
        lab_view("rope_clock", {"d_k": 3})


# ---- issue 29: the base as a control, the slowest pair, wide heads, "offset" -------------


def rendered(**params):
    chosen = lab("rope_clock")
    first = chosen.first_view(params)
    body = chosen.body(first["params"], Marks("rope-clock", first["view"]))
    return first["view"], lab_html("rope_clock", "rope-clock", chosen.title, first["params"], body)


def test_the_base_is_a_labelled_number_field_that_takes_any_value_typed():
    _, page = rendered()
    assert '<label for="rope-clock-base">RoPE base</label>' in page
    field = re.search(r'<input type="number" id="rope-clock-base"[^>]*>', page).group(0)
    assert 'data-param="base"' in field and 'step="any"' in field
    assert 'value="10000"' in field  # not 10000.0
    assert float(re.search(r'max="([^"]+)"', field).group(1)) >= 1e6
    for base in (10000, 500000, 1_000_000):
        assert lab_view("rope_clock", {"base": base})["params"]["base"] == base
    with pytest.raises(ValueError, match="base must lie in"):
        lab_view("rope_clock", {"base": 1})


@pytest.mark.parametrize(("d_k", "base"), [(4, 10000.0), (128, 10000.0), (128, 500000.0)])
def test_the_slowest_pair_and_its_period_are_shown(d_k, base):
    s = rope_clock.LAB.compute(d_k=d_k, base=base)
    rate = base ** (-(d_k - 2) / d_k)  # pair d_k / 2 - 1
    assert s["slowest_rate"] == pytest.approx(rate)
    assert s["slowest_rate"] == pytest.approx(min(s["rates"]))
    assert s["slowest_period"] == pytest.approx(2 * math.pi / rate)
    text = rope_clock.view(s)["text"]
    assert text["slowest_pair"] == f"pair {d_k // 2 - 1}"
    assert float(text["slowest_period"].replace(",", "")) == pytest.approx(
        2 * math.pi / rate, abs=0.05
    )


def test_a_head_of_128_at_the_two_bases_gives_the_periods_the_page_asks_for():
    periods = [
        rope_clock.view(rope_clock.LAB.compute(d_k=128, base=base))["text"]["slowest_period"]
        for base in (10000.0, 500000.0)
    ]
    assert periods == ["54,410.1", "2,559,195.5"]


def test_a_wide_head_draws_sixteen_hands_from_the_fastest_to_the_slowest_and_lists_every_pair():
    s = rope_clock.LAB.compute(d_k=128, q_pos=30, k_pos=11)
    view = rope_clock.view(s)
    hands = _hands(view["svg"]["clocks"])
    numbers = [int(x["text"]) for x in view["svg"]["clocks"] if x["tag"] == "text"]
    assert len(hands) == len(numbers) == rope_clock_face.MOST_HANDS
    assert numbers[0] == 0 and numbers[-1] == 63 and numbers == sorted(set(numbers))
    c = rope_clock_face.FACE_SIZE / 2
    for hand, pair in zip(hands, numbers, strict=True):
        turned = np.arctan2(c - float(hand["y2"]), float(hand["x2"]) - c) - np.pi / 2
        assert np.cos(turned) == pytest.approx(np.cos(19 * s["rates"][pair]), abs=1e-3)
        assert np.sin(turned) == pytest.approx(np.sin(19 * s["rates"][pair]), abs=1e-3)
    assert len(view["rows"]["pairs"]) == 64
    assert "16 of the 64 hands" in view["text"]["clocks_title"]
    assert "= 19 × θ_i" in view["text"]["clocks_title"]


def test_long_lists_are_shortened_in_the_readout_but_not_in_the_table():
    text = rope_clock.view(rope_clock.LAB.compute(d_k=128))["text"]
    assert text["q"].endswith("(128 numbers)") and "…" in text["q"]
    assert text["rates"].startswith("1, ") and text["rates"].endswith("0.000115")
    short = rope_clock.view(rope_clock.LAB.compute(d_k=16))["text"]
    assert "…" not in short["q"] and short["rates"].count(",") == 7


def test_the_pair_table_scrolls_in_a_labelled_region_the_keyboard_reaches():
    _, page = rendered(d_k=128)
    region = re.search(r'<div class="livelab-table-wrap[^"]*"[^>]*>', page).group(0)
    assert 'tabindex="0"' in region and 'role="region"' in region
    caption = re.search(r'aria-labelledby="([^"]+)"', region).group(1)
    assert f'<caption id="{caption}">' in page


def test_the_signed_gap_is_called_the_offset_everywhere_on_the_lab():
    view, page = rendered(q_pos=300, k_pos=4)
    assert "distance" not in page.lower()
    assert not any("distance" in t.lower() for t in view["text"].values())
    axis = [x.get("text", "") for x in view["svg"]["scores"]]
    assert "offset m − n" in axis
    assert "q·k" in axis


@pytest.mark.parametrize("d_k", [4, 128])
def test_a_view_is_computed_in_well_under_fifty_milliseconds(d_k):
    lab_view("rope_clock", {"d_k": d_k})  # imports and caches warm
    took = []
    for _ in range(5):
        start = time.perf_counter()
        lab_view("rope_clock", {"d_k": d_k, "base": 500000, "q_pos": 2048, "k_pos": 0})
        took.append(time.perf_counter() - start)
    assert sorted(took)[2] < 0.05
