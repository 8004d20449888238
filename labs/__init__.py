"""Level 19's own Python: its labs, code questions and reference kernels, as a course package.

`mkdocs.yml` names it in the livelab plugin's `modules`, so the build imports it and ships it
to the browser, where the worker imports it right after livelab. Importing it imports none of
its labs: it tells livelab's registries to look here, and each lab module (one per lab) or
question module (in `questions/`) is imported the first time its name is asked for, as
livelab's own are, so a page that shows one lab pays for that lab's module only.
"""

from labs import kernels
from livelab.labs import LABS
from livelab.questions import CODE_QUESTIONS
from livelab.scratch_names import scratchpad_names

LABS.add_package(__name__)
CODE_QUESTIONS.add_package(f"{__name__}.questions")

# The scratchpad starts with every kernel but those that hand over a numeric question's result
# in one call: the gated width for equal weights, and the counts of the real models' configs
# (the capstone asks for one). They stay importable from labs.kernels, so nothing is hidden;
# they are just not offered before the student has worked the numbers out.
CONFIG_KERNELS = {
    "MODEL_FILES",
    "head_width",
    "kv_cache_per_token",
    "model_config",
    "parameter_count",
    "parameter_parts",
    "slowest_rope_period",
}
scratchpad_names(kernels, leave_out={"gated_width_for_equal_weights", *CONFIG_KERNELS})
