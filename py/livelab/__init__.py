"""livelab: kernels, lab state and grading for the course, the same in CPython and Pyodide.

Importing the package stays light (NumPy only): the MkDocs plugin lives in `livelab.builder.plugin`
and is imported only by MkDocs, never inside the browser.
"""

__version__ = "0.1.0"
