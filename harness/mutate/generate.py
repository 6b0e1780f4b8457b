"""Every mutant of a tree's chosen files, and the ones a run takes: those
named (--mutant ID, --only FILE:LINE), else N sampled with a seed."""
import os
import random

from harness.errors import BadInput
from harness.mutate.callgraph import CallGraph
from harness.mutate.clangparse import parse
from harness.mutate.operators import CATEGORIES, file_mutants


def all_mutants(tree, files):
    """(mutants sorted by file, offset and operator, facts): the call graph
    is built from every unit of the copy (an entry point of lz4frame.c
    reaches lz4.c's functions), the mutants are those of `files`."""
    layout = os.path.join(tree.path, tree.layout)
    graph, tus = CallGraph(), {}
    for unit in tree.units:
        tus[unit] = parse(os.path.join(tree.path, unit), tree.flags)
        graph.add_unit(tus[unit], layout)
    reach = graph.reachable()
    mutants, functions = [], {}
    for rel in files:
        found = file_mutants(tus[rel], os.path.join(tree.path, rel), rel, reach, layout)
        functions[rel] = len({m.function for m in found})
        mutants += found
    mutants.sort(key=lambda m: (m.file, m.edits[0][0], m.op))
    facts = {"entry_points": len(graph.roots()), "functions_defined": len(graph.edges),
             "functions_on_api_paths": len(reach), "functions_mutated": functions,
             "candidates": len(mutants),
             "by_category": {c: sum(m.category == c for m in mutants) for c in CATEGORIES}}
    return mutants, facts


def _line_spec(spec):
    path, sep, line = spec.rpartition(":")
    if not sep or not line.isdigit():
        raise BadInput("--only %s: use FILE:LINE (lib/lz4.c:1999)" % spec)
    return os.path.normpath(path), int(line)


def select(mutants, ids=(), lines=(), n=50, seed=1):
    """The mutants to run: those of the given ids and FILE:LINE places (in
    the order given), else a sample of n drawn with seed (in file order)."""
    if ids or lines:
        by_id = {m.id: m for m in mutants}
        out = []
        for i in ids:
            if i not in by_id:
                near = [m.id for m in mutants if m.id.rsplit(":", 2)[0] == i.rsplit(":", 2)[0]]
                raise BadInput("--mutant %s: no such mutant%s (list them: --list)" % (
                    i, "; on that line: " + ", ".join(near) if near else ""))
            out.append(by_id[i])
        for spec in lines:
            path, line = _line_spec(spec)
            here = [m for m in mutants if m.line == line and
                    (m.file == path or os.path.basename(m.file) == path)]
            if not here:
                raise BadInput("--only %s: no mutant on that line (not in a function on the "
                               "API's paths, or no operator there)" % spec)
            out += [m for m in here if m not in out]
        return out
    if n < 1:
        raise BadInput("-n %d: take at least one mutant" % n)
    picked = random.Random(seed).sample(range(len(mutants)), min(n, len(mutants)))
    return [mutants[i] for i in sorted(picked)]
