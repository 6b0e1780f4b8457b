"""Known-answer vectors: the generator (make_vectors.c and its catalogues,
built and run by generate.py) and the runner (vectors.c)."""
