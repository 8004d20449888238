"""`livelab` command: fetch the verified runtime files, serve the built site, check a course."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from livelab.builder import fetch, new_course, site_assets


def _fetch(args: argparse.Namespace) -> int:
    cache = fetch.cache_root(args.cache_dir)
    runtime = fetch.fetch_runtime(cache)
    for name, pin in fetch.pins().items():
        print(f"verified {name} {pin.version} ({pin.integrity[:19]}...)")
    print(f"verified {runtime.numpy_wheel.name} (sha256 matches pyodide-lock.json)")
    print(f"runtime files are in {cache}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from livelab.builder.serve import make_server

    server = make_server(
        Path(args.site_dir), args.host, args.port, not args.no_isolation, verbose=True
    )
    print(f"serving {args.site_dir} at http://{args.host}:{server.server_port}/ (Ctrl+C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


def _check(args: argparse.Namespace) -> int:
    from livelab.builder.check import main as check_main

    return check_main(Path(args.config_file), browser=args.browser)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="livelab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    fetch_cmd = sub.add_parser(
        "fetch-runtime",
        help="fetch and verify Pyodide, its NumPy wheel, KaTeX and Workbox into the cache",
    )
    fetch_cmd.add_argument(
        "--cache-dir",
        help=f"default: ${fetch.CACHE_ENV}, else $XDG_CACHE_HOME/livelab or ~/.cache/livelab",
    )
    fetch_cmd.set_defaults(handler=_fetch)
    serve = sub.add_parser("serve", help="serve a built site, cross-origin isolated")
    serve.add_argument("site_dir", nargs="?", default="site")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--no-isolation",
        action="store_true",
        help="omit COOP/COEP headers (stop then restarts the worker)",
    )
    serve.set_defaults(handler=_serve)
    check = sub.add_parser("check", help="build the site and replay every question")
    check.add_argument("--config-file", default="mkdocs.yml")
    check.add_argument(
        "--browser",
        action="store_true",
        help="also replay code and numeric questions in Chromium through Pyodide",
    )
    check.set_defaults(handler=_check)
    site_assets.add_commands(sub)
    new_course.add_command(sub)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except fetch.AssetError as exc:
        print(f"livelab: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
