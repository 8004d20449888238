"""Runtime files: the NumPy wheel must be the one pyodide-lock.json names, or nothing lands;
the archive holds the Python the browser runs (livelab and a course's own modules)."""

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from livelab.builder import assets, fetch, wheel_sources

WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"


def fake_pyodide(tmp_path: Path, wheel_bytes: bytes) -> Path:
    """A folder shaped like the npm package pyodide whose lock lists wheel_bytes' hash."""
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in fetch.CORE_FILES:
        (folder / name).write_bytes(b"core")
    (folder / "package.json").write_text(json.dumps({"version": fetch.PYODIDE_VERSION}))
    lock = {
        "packages": {
            "numpy": {"file_name": WHEEL, "sha256": hashlib.sha256(wheel_bytes).hexdigest()}
        }
    }
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    return folder


def test_a_wheel_from_a_mirror_with_the_locked_hash_is_cached(tmp_path, monkeypatch):
    pyodide = fake_pyodide(tmp_path, b"the real wheel")
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / WHEEL).write_bytes(b"the real wheel")
    monkeypatch.setenv(wheel_sources.MIRROR_ENV, str(mirror))
    cached = fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    assert cached.read_bytes() == b"the real wheel"


def test_a_mismatched_wheel_stops_with_file_and_both_hashes(tmp_path, monkeypatch):
    pyodide = fake_pyodide(tmp_path, b"the real wheel")
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / WHEEL).write_bytes(b"a tampered wheel")
    monkeypatch.setenv(wheel_sources.MIRROR_ENV, str(mirror))
    with pytest.raises(fetch.AssetError) as info:
        fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    message = str(info.value)
    assert WHEEL in message
    assert hashlib.sha256(b"a tampered wheel").hexdigest() in message
    assert hashlib.sha256(b"the real wheel").hexdigest() in message
    assert not (tmp_path / "cache" / WHEEL).exists()


def test_a_corrupted_cache_is_caught_on_the_next_build(tmp_path, monkeypatch):
    pyodide = fake_pyodide(tmp_path, b"the real wheel")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / WHEEL).write_bytes(b"bit rot")
    with pytest.raises(fetch.AssetError, match="sha256 mismatch"):
        fetch.fetch_numpy_wheel(pyodide, cache)


def test_missing_core_files_are_named(tmp_path):
    pyodide = fake_pyodide(tmp_path, b"w")
    (pyodide / "pyodide.asm.wasm").unlink()
    with pytest.raises(fetch.AssetError, match=r"pyodide\.asm\.wasm"):
        fetch.check_core(pyodide)


def test_the_fetched_npm_package_is_the_pinned_version():
    pyodide = fetch.package_dir("pyodide", fetch.cache_root())
    meta = json.loads((pyodide / "package.json").read_text())
    assert meta["version"] == fetch.PYODIDE_VERSION
    wheel = fetch.locked_wheel(pyodide)
    assert wheel.file_name == WHEEL


def test_the_package_archive_holds_browser_code_only(tmp_path):
    import livelab

    archive = assets.write_package_archive(Path(livelab.__file__).parent, tmp_path)
    names = zipfile.ZipFile(archive).namelist()
    assert "livelab/worker_api.py" in names
    assert "livelab/labs/markup.py" in names
    assert not any(n.startswith("labs/") for n in names), "the engine's archive holds no course"
    assert not any(n.startswith(("livelab/builder/", "livelab/web/")) for n in names)
    assert not any(n.endswith(("plugin.py", "fences.py", "assets.py")) for n in names)


def test_a_course_module_and_a_course_package_ride_beside_livelab(tmp_path):
    import livelab

    course = tmp_path / "course"
    write = {
        "single.py": "X = 1\n",
        "pkg/__init__.py": "",
        "pkg/lab.py": "Y = 2\n",
        "pkg/cases.json": "{}",
        "pkg/__pycache__/lab.cpython-311.pyc": "",
        "pkg/notes.txt": "not code",
    }
    for rel, text in write.items():
        (course / rel).parent.mkdir(parents=True, exist_ok=True)
        (course / rel).write_text(text)
    modules = {"single": course / "single.py", "pkg": course / "pkg"}
    package = Path(livelab.__file__).parent
    archive = assets.write_package_archive(package, tmp_path / "out", modules)
    names = zipfile.ZipFile(archive).namelist()
    course_names = [n for n in names if not n.startswith("livelab/")]
    assert course_names == ["single.py", "pkg/__init__.py", "pkg/cases.json", "pkg/lab.py"]
    assert zipfile.ZipFile(archive).read("pkg/lab.py") == b"Y = 2\n"
    alone = assets.write_package_archive(package, tmp_path / "alone")
    assert alone.name != archive.name  # a course change is a new name browsers fetch


def test_the_package_archive_name_follows_its_content(tmp_path):
    import livelab

    first = assets.write_package_archive(Path(livelab.__file__).parent, tmp_path / "a")
    second = assets.write_package_archive(Path(livelab.__file__).parent, tmp_path / "b")
    assert first.name == second.name
    assert first.read_bytes() == second.read_bytes()


def test_boot_facts_give_each_download_its_size_and_change_with_the_runtime(tmp_path):
    pyodide = fake_pyodide(tmp_path, b"wheel")
    (pyodide / WHEEL).write_bytes(b"wheel")
    archive = tmp_path / "livelab-0123.zip"
    archive.write_bytes(b"zip bytes")
    facts = assets.boot_facts(pyodide, WHEEL, archive)
    sizes = facts["sizes"]
    assert sizes["pyodide/pyodide.asm.wasm"] == len(b"core")
    assert sizes[f"pyodide/{WHEEL}"] == len(b"wheel")
    assert sizes[archive.name] == len(b"zip bytes")
    (pyodide / "pyodide.asm.wasm").write_bytes(b"another build")
    assert assets.boot_facts(pyodide, WHEEL, archive)["runtime"] != facts["runtime"]
