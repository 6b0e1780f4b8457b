"""Where things are: the repository and its build directory."""
import os

HARNESS = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HARNESS)
BUILD = os.path.join(TOP, "build")
REF = os.path.join(TOP, "ref")
FUZZ = os.path.join(TOP, "fuzz")
CORPUS = os.path.join(TOP, "corpus")
CASES_DIR = os.path.join(TOP, "regress", "cases")
ADAPTERS = os.path.join(HARNESS, "subjects", "adapters")
KSHIM = os.path.join(HARNESS, "subjects", "kshim")
RUNNERS = os.path.join(HARNESS, "runners")
COMMON_C = os.path.join(RUNNERS, "common")


def shown(path):
    """A path as printed: relative to the repository when inside it."""
    path = os.path.abspath(path)
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path
