"""Reference kernels: the course's NumPy definitions, shared by labs, grader and tests.

Every kernel is pure NumPy and works on any leading batch axes; shapes are written in each
docstring. RoPE rotates adjacent pairs (0, 1), (2, 3), ... counter-clockwise.
"""

from labs.kernels.attention import (
    attention_steps,
    causal_attention,
    causal_mask,
    head_attention,
    merge_heads,
    softmax,
    split_heads,
)
from labs.kernels.block import (
    MODERN_CONFIG,
    BlockConfig,
    init_params,
    modern_block,
    modern_block_steps,
    modern_stack,
    param_shapes,
    postnorm_block,
    postnorm_stack,
    prenorm_block,
    prenorm_stack,
    validate_config,
)
from labs.kernels.ffn import (
    ffn_weight_count,
    gated_width_for_equal_weights,
    relu,
    relu_ffn,
    sigmoid,
    silu,
    swiglu_ffn,
)
from labs.kernels.gradients import (
    Stacks,
    random_stacks,
    stack_loss,
    stack_weight_grads,
    weight_gradient_sizes,
)
from labs.kernels.norms import layernorm, rmsnorm, root_mean_square
from labs.kernels.params import (
    MODEL_FILES,
    head_width,
    kv_cache_per_token,
    model_config,
    parameter_count,
    parameter_parts,
    slowest_rope_period,
)
from labs.kernels.rope import rope, rope_halves, rope_rates, rope_score, rotate

__all__ = [
    "MODEL_FILES",
    "MODERN_CONFIG",
    "BlockConfig",
    "Stacks",
    "attention_steps",
    "causal_attention",
    "causal_mask",
    "ffn_weight_count",
    "gated_width_for_equal_weights",
    "head_attention",
    "head_width",
    "init_params",
    "kv_cache_per_token",
    "layernorm",
    "merge_heads",
    "model_config",
    "modern_block",
    "modern_block_steps",
    "modern_stack",
    "param_shapes",
    "parameter_count",
    "parameter_parts",
    "postnorm_block",
    "postnorm_stack",
    "prenorm_block",
    "prenorm_stack",
    "random_stacks",
    "relu",
    "relu_ffn",
    "rmsnorm",
    "root_mean_square",
    "rope",
    "rope_halves",
    "rope_rates",
    "rope_score",
    "rotate",
    "sigmoid",
    "silu",
    "slowest_rope_period",
    "softmax",
    "split_heads",
    "stack_loss",
    "stack_weight_grads",
    "swiglu_ffn",
    "validate_config",
    "weight_gradient_sizes",
]
