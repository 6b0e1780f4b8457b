"""The gate: may CANDIDATE replace BASE? stages.py runs the stages, cli.py
reads the options and writes the reports (harness/report/gate_report.py)."""
