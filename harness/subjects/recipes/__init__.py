"""Build recipes, one per subject kind. A recipe turns a staged subject into
the objects of subject.o: recipe(builder, stage_dir) -> (objects, link
flags the final program needs, info for subject.json). The builder
(harness/subjects/build.py) gives it the compiler, flags and a compile()
that goes through the object cache."""
from harness.subjects.recipes import kernel, project, ref, upstream

RECIPES = {
    "ref": ref.build_ref,
    "ref-mutant": ref.build_mutant,
    "broken": ref.build_broken,
    "upstream": upstream.build_upstream,
    "system": upstream.build_system,
    "kernel": kernel.build_kernel,
    "project": project.build_project,
}
