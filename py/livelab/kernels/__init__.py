"""Reference kernels: the course's NumPy definitions, shared by labs, grader and tests."""

from livelab.kernels.rope import rope, rope_rates, rotate

__all__ = ["rope", "rope_rates", "rotate"]
