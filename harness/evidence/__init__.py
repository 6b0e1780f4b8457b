"""What the runners and fuzz targets saw, in one model: the record
(records.py), the failure class table shared with the C code (classes.py),
sanitizer reports and the oracle's lines read once (failure.py), and the
committed tree snapshots (snapshots.py). Nothing here decides a verdict:
harness/findings does."""
