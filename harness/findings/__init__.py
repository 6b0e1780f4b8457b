"""What the evidence means, decided once: the one classifier
(classify.py, placement.py, fuzz_units.py), root causes (sites.py,
rootcause.py), the verdict policy (policy.py), and what they read: the
documented findings (documented.py, known_findings.json) and the fix
catalogue (catalogue.py, ranges.py, release_ranges.json)."""
