"""Build-only code: the MkDocs plugin, fences and their markup, runtime files, the author check.

Nothing here runs in the browser. Everything else in the livelab package (and the browser
code in livelab/web/) ships into the site.
"""
