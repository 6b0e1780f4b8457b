"""REGRESSIONS.md: results -> cells (results.py), Markdown (render.py +\ntemplate.md), consistency check (check.py), command line (cli.py)."""
