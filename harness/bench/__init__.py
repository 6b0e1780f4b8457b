"""`python3 -m harness fuzz-bench`: exec/s of the fuzz targets next to upstream
lz4's own fuzzers, and the time each target needs to find a planted bug."""
