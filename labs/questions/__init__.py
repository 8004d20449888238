"""Level 19's code questions, one module each with its replay data (<name>.cases.json) beside it.

livelab imports each module the first time its question is asked for (labs/__init__.py adds
this package to livelab's code-question registry).
"""
