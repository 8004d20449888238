"""A runner's interpreter is checked for the course before student code runs
(livelab.set_aside): anything of it, a module, a file or a function, stops the runner."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
sys.path.insert(0, {root!r})
{imports}
from livelab.set_aside import check_no_course
try:
    check_no_course({root!r}, ["labs"])
except Exception as err:
    print(type(err).__name__, err)
else:
    print("clean")
"""


def probe(root: Path, imports: str) -> str:
    code = PROBE.format(root=str(root), imports=imports)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def package(tmp_path: Path, with_course: bool) -> Path:
    """The package unpacked as a worker does: livelab beside the course (or alone)."""
    shutil.copytree(ROOT / "py" / "livelab", tmp_path / "livelab")
    if with_course:
        shutil.copytree(ROOT / "labs", tmp_path / "labs")
    return tmp_path


def test_an_engine_without_the_course_is_clean(tmp_path):
    root = package(tmp_path, with_course=False)
    assert probe(root, "import livelab.worker_api, livelab.grading_execute") == "clean"


def test_the_course_imported_is_found(tmp_path):
    root = package(tmp_path, with_course=True)
    said = probe(root, "import livelab.worker_api, labs.kernels")
    assert said.startswith("CourseStillThere the course is in this interpreter: module labs")


def test_a_course_file_left_behind_is_found(tmp_path):
    root = package(tmp_path, with_course=True)
    assert "file labs" in probe(root, "import livelab.worker_api")


def test_a_function_of_the_course_kept_alive_is_found(tmp_path):
    root = package(tmp_path, with_course=True)
    keep = "\n".join(
        [
            "import shutil, labs.kernels as k",
            "kept = k.rmsnorm",
            "for n in [n for n in sys.modules if n.startswith('labs')]: del sys.modules[n]",
            f"shutil.rmtree({str(root / 'labs')!r})",
        ]
    )
    said = probe(root, keep)
    assert "interpreter: function " in said and "/labs/kernels/" in said
