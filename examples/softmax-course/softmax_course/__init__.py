"""The example course's own Python: one lab and one code question, registered on import.

The plugin setting `modules: [softmax_course]` makes the build import this package and ships
it to the browser, where the worker imports it right after livelab.
"""

from softmax_course import lab, question

__all__ = ["lab", "question"]
