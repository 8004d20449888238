"""npm tarballs without npm: only a tarball with the pinned integrity is unpacked and cached."""

import io
import json
import tarfile

import pytest

from livelab.builder import fetch


def tarball(files: dict[str, bytes]) -> bytes:
    """A gzipped tar laid out as npm packs one: every member under package/."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


GOOD = tarball(
    {
        "package/package.json": b'{"version": "1.2.3"}',
        "package/build/demo.js": b"// demo",
        "package/../escape.js": b"// outside",
    }
)


@pytest.fixture
def registry(monkeypatch):
    """A pinned package `demo` and a registry serving `served`; returns the URLs asked for."""
    asked: list[str] = []
    served = {"bytes": GOOD}
    pin = fetch.Pin("demo", "1.2.3", fetch.integrity_of(GOOD))
    monkeypatch.setattr(fetch, "pins", lambda: {"demo": pin})
    monkeypatch.setenv(fetch.REGISTRY_ENV, "https://npm.example/registry/")

    def download(url: str) -> bytes:
        asked.append(url)
        return served["bytes"]

    monkeypatch.setattr(fetch, "_download", download)
    return asked, served


def test_a_pinned_tarball_is_unpacked_once_and_then_read_from_the_cache(tmp_path, registry):
    asked, _ = registry
    folder = fetch.package_dir("demo", tmp_path)
    assert folder == tmp_path / "npm" / "demo-1.2.3"
    assert (folder / "build/demo.js").read_bytes() == b"// demo"
    assert json.loads((folder / "package.json").read_text()) == {"version": "1.2.3"}
    assert not (tmp_path / "npm" / "escape.js").exists()
    assert not (tmp_path / "escape.js").exists()
    assert asked == ["https://npm.example/registry/demo/-/demo-1.2.3.tgz"]
    assert fetch.package_dir("demo", tmp_path) == folder
    assert len(asked) == 1


def test_a_tampered_tarball_stops_with_both_integrities_and_leaves_no_files(tmp_path, registry):
    _, served = registry
    served["bytes"] = tarball({"package/build/demo.js": b"// evil"})
    with pytest.raises(fetch.AssetError) as info:
        fetch.package_dir("demo", tmp_path)
    message = str(info.value)
    assert fetch.integrity_of(served["bytes"]) in message
    assert fetch.integrity_of(GOOD) in message
    assert "demo-1.2.3.tgz" in message
    assert not (tmp_path / "npm" / "demo-1.2.3").exists()


def test_a_half_unpacked_folder_is_fetched_again(tmp_path, registry):
    asked, _ = registry
    stale = tmp_path / "npm" / "demo-1.2.3"
    stale.mkdir(parents=True)
    (stale / "leftover.js").write_text("// from a build that was cut short")
    folder = fetch.package_dir("demo", tmp_path)
    assert (folder / "build/demo.js").is_file()
    assert not (folder / "leftover.js").exists()
    assert len(asked) == 1


def test_the_cache_is_the_setting_then_the_variable_then_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.delenv(fetch.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fetch.cache_root() == tmp_path / "xdg" / "livelab"
    monkeypatch.setenv(fetch.CACHE_ENV, str(tmp_path / "env"))
    assert fetch.cache_root() == tmp_path / "env"
    assert fetch.cache_root(tmp_path / "setting") == tmp_path / "setting"


def test_every_pin_names_a_version_and_a_sha512_integrity():
    pins = fetch.pins()
    assert set(pins) == {"pyodide", "katex", *fetch.WORKBOX_PACKAGES}
    for pin in pins.values():
        assert pin.version.count(".") == 2, pin
        assert pin.integrity.startswith("sha512-") and len(pin.integrity) == 95, pin


def test_the_real_cache_holds_what_the_site_serves():
    runtime = fetch.fetch_runtime(fetch.cache_root())
    assert all((runtime.pyodide / name).is_file() for name in fetch.CORE_FILES)
    assert (runtime.katex / "dist" / "katex.mjs").is_file()
    for name, folder in runtime.workbox.items():
        assert folder.name == f"{name}-{fetch.pins()[name].version}"
    assert runtime.numpy_wheel.name == fetch.locked_wheel(runtime.pyodide).file_name


def test_a_scoped_package_is_downloaded_from_its_scoped_address_and_must_match_its_pin(
    tmp_path, monkeypatch
):
    good = fetch.Pin("@lezer/lr", "1.4.12", fetch.integrity_of(b"the real tarball"))
    monkeypatch.setattr(fetch, "pins", lambda: {"@lezer/lr": good})
    monkeypatch.setenv(fetch.REGISTRY_ENV, "https://npm.example/")
    asked: list[str] = []
    monkeypatch.setattr(fetch, "_download", lambda url: asked.append(url) or b"other bytes")
    with pytest.raises(fetch.AssetError) as info:
        fetch.package_dir("@lezer/lr", tmp_path)
    assert asked == ["https://npm.example/@lezer/lr/-/lr-1.4.12.tgz"]
    assert good.integrity in str(info.value)
    assert not (tmp_path / "npm" / "@lezer" / "lr-1.4.12").exists()
