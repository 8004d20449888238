"""Parameter counts of five published models, from the configs the course ships."""

import json
import math

import numpy as np
import pytest

from labs.kernels import (
    MODEL_FILES,
    head_width,
    kv_cache_per_token,
    model_config,
    parameter_count,
    parameter_parts,
    slowest_rope_period,
)
from labs.kernels.params import CONFIG_DIR, FIELDS

# The published totals (issue 29 §4), each the sum over the model's config.
PUBLISHED_COUNTS = {
    "llama-2-7b": 6_738_415_616,
    "mistral-7b": 7_241_732_096,
    "llama-3-8b": 8_030_261_248,
    "qwen2-7b": 7_615_616_512,
    "smollm2-135m": 134_515_008,
}


@pytest.mark.parametrize(("key", "count"), PUBLISHED_COUNTS.items())
def test_each_model_counts_exactly_its_published_number_of_parameters(key, count):
    assert parameter_count(model_config(key)) == count


def test_every_shipped_config_is_listed_and_has_the_counted_fields():
    assert set(MODEL_FILES) == set(PUBLISHED_COUNTS)
    assert sorted(MODEL_FILES.values()) == sorted(p.name for p in CONFIG_DIR.glob("*.json"))
    for key in MODEL_FILES:
        config = model_config(key)
        assert set(FIELDS) <= set(config) and config["name"]
        assert isinstance(config["tie_word_embeddings"], bool)


def test_the_configs_hold_the_published_fields():
    llama2, mistral = model_config("llama-2-7b"), model_config("mistral-7b")
    assert (llama2["num_key_value_heads"], mistral["num_key_value_heads"]) == (32, 8)
    assert (llama2["intermediate_size"], mistral["intermediate_size"]) == (11008, 14336)
    assert model_config("llama-3-8b")["rope_theta"] == 500_000
    qwen = model_config("qwen2-7b")
    assert (qwen["hidden_size"], qwen["num_key_value_heads"], qwen["qkv_bias"]) == (3584, 4, True)
    assert model_config("smollm2-135m")["tie_word_embeddings"] is True


def test_only_qwen2_has_qkv_biases_and_only_smollm2_ties_its_embeddings():
    assert [k for k in MODEL_FILES if model_config(k)["qkv_bias"]] == ["qwen2-7b"]
    assert [k for k in MODEL_FILES if model_config(k)["tie_word_embeddings"]] == ["smollm2-135m"]


def test_parts_follow_the_counting_rule_of_one_layer():
    c = model_config("mistral-7b")
    parts = parameter_parts(c)
    d, layers, d_k = 4096, 32, 128
    assert parts["W_q"] == parts["W_o"] == layers * d * 32 * d_k
    assert parts["W_k"] == parts["W_v"] == layers * d * 8 * d_k
    assert parts["ffn"] == layers * 3 * d * 14336
    assert parts["norms"] == layers * 2 * d + d
    assert parts["embeddings"] == parts["output"] == 32000 * d


def test_a_tied_output_layer_adds_nothing_and_untying_adds_the_embeddings_again():
    tied = model_config("smollm2-135m")
    assert parameter_parts(tied)["output"] == 0
    untied = dict(tied, tie_word_embeddings=False)
    assert parameter_count(untied) - parameter_count(tied) == 49152 * 576


def test_qwen2_biases_add_one_number_per_output_of_q_k_and_v():
    qwen = model_config("qwen2-7b")
    without = dict(qwen, qkv_bias=False)
    assert parameter_count(qwen) - parameter_count(without) == 28 * (28 + 2 * 4) * 128


def test_the_slips_the_capstone_question_lists_give_the_counts_it_lists():
    llama = model_config("llama-2-7b")
    total = parameter_count(llama)
    assert parameter_count(dict(llama, tie_word_embeddings=True)) == 6_607_343_616
    assert total - parameter_parts(llama)["norms"] == 6_738_149_376
    assert parameter_count(dict(llama, intermediate_size=4 * 4096)) == 8_852_344_832


def test_grouped_heads_shrink_the_kv_cache_by_the_group_size():
    mistral = model_config("mistral-7b")
    assert head_width(mistral) == 128
    assert kv_cache_per_token(mistral) == 2 * 8 * 128
    assert kv_cache_per_token(model_config("llama-2-7b")) == 4 * kv_cache_per_token(mistral)


def test_slowest_rope_period_is_one_turn_of_the_last_pair():
    rates = 10000.0 ** (-2 * np.arange(64) / 128)
    assert slowest_rope_period(128, 10000) == pytest.approx(2 * math.pi / rates[-1])
    assert slowest_rope_period(128, 10000) == pytest.approx(54410.14, abs=0.01)
    assert slowest_rope_period(2, 10000) == pytest.approx(2 * math.pi)  # one pair, rate 1
    with pytest.raises(ValueError, match="even head width"):
        slowest_rope_period(5, 10000)


def test_bad_configs_are_refused_with_the_field_at_fault():
    with pytest.raises(ValueError, match="no config for 'gpt-5'"):
        model_config("gpt-5")
    with pytest.raises(ValueError, match="does not split into 7 heads"):
        head_width({"hidden_size": 64, "num_attention_heads": 7})
    uneven = dict(model_config("mistral-7b"), num_key_value_heads=5)
    with pytest.raises(ValueError, match="share 5 key-value heads"):
        parameter_parts(uneven)


def test_config_files_are_plain_json_with_two_space_indent():
    for name in MODEL_FILES.values():
        text = (CONFIG_DIR / name).read_text(encoding="utf-8")
        assert text == json.dumps(json.loads(text), indent=2) + "\n"
