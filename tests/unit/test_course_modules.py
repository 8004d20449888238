"""A course's own modules: found beside mkdocs.yml, shipped whole, refused with a reason."""

import sys

import pytest

from livelab.builder.course import CourseModuleError, import_course_modules


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder with a module file and a package; sys.path and modules restored after."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    (tmp_path / "course_single_mod.py").write_text("VALUE = 1\n")
    (tmp_path / "course_pkg_mod").mkdir()
    (tmp_path / "course_pkg_mod" / "__init__.py").write_text("from . import part\n")
    (tmp_path / "course_pkg_mod" / "part.py").write_text("VALUE = 2\n")
    return tmp_path


def test_a_module_file_and_a_package_beside_mkdocs_yml_are_imported(course):
    found = import_course_modules(["course_single_mod", "course_pkg_mod"], course)
    assert found == {
        "course_single_mod": course / "course_single_mod.py",
        "course_pkg_mod": course / "course_pkg_mod",
    }
    assert sys.modules["course_pkg_mod.part"].VALUE == 2


def test_a_missing_module_is_named_with_what_to_do(course):
    with pytest.raises(CourseModuleError, match=r"'course_absent_mod'.*beside mkdocs\.yml"):
        import_course_modules(["course_absent_mod"], course)


@pytest.mark.parametrize("name", ["course_pkg_mod.part", "livelab"])
def test_a_dotted_name_or_livelab_itself_is_refused(course, name):
    with pytest.raises(CourseModuleError, match="not a top-level module of the course"):
        import_course_modules([name], course)


def test_a_module_without_python_source_is_refused(course):
    with pytest.raises(CourseModuleError, match="not Python source"):
        import_course_modules(["math"], course)  # compiled C: nothing Pyodide could import
