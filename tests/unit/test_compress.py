"""Pre-compressed copies of the site, and `livelab serve` sending them to browsers that ask."""

import gzip
import random
import urllib.request

from livelab.builder.compress import precompress
from livelab.builder.serve import make_server, serve_in_thread


def site_with(tmp_path, files: dict[str, bytes]):
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path


def test_text_files_get_a_smaller_gzip_copy_and_small_or_packed_files_do_not(tmp_path):
    page = b"<p>" + b"the same words again " * 500 + b"</p>"
    random_bytes = random.Random(0).randbytes(50_000)
    site = site_with(
        tmp_path,
        {"index.html": page, "tiny.js": b"let a = 1;", "noise.wasm": random_bytes, "a.zip": page},
    )
    done = precompress(site)
    assert gzip.decompress((site / "index.html.gz").read_bytes()) == page
    assert not (site / "tiny.js.gz").exists()  # too small to be worth it
    assert not (site / "a.zip.gz").exists()  # not a type that compresses
    assert not (site / "noise.wasm.gz").exists()  # gzip would not save 10%
    assert (done.files, done.raw_bytes) == (1, len(page))
    assert done.gzip_bytes == (site / "index.html.gz").stat().st_size


def fetch(url: str, encoding: str | None):
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(request) as response:
        return response.headers, response.read()


def test_the_server_sends_the_gzip_copy_only_to_browsers_that_accept_it(tmp_path):
    script = b"console.log('hello');\n" * 400
    site = site_with(tmp_path, {"app.js": script})
    precompress(site)
    server = make_server(site, port=0)
    serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_port}/app.js"
    try:
        headers, body = fetch(url, "gzip, deflate, br")
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Content-Type"] == "text/javascript"
        assert gzip.decompress(body) == script
        headers, body = fetch(url, None)
        assert headers["Content-Encoding"] is None
        assert body == script
        assert headers["Vary"] == "Accept-Encoding"
    finally:
        server.shutdown()
        server.server_close()
