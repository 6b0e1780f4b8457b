"""Fetching the default subjects from Debian's archive into build/subjects/:
common.py (exit convention, commands, stamps), apt.py (deb-src, queries),
upstream.py (lz4 source package), kernel.py (linux-source-X.Y), cli.py."""
