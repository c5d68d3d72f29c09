"""``python -m app``: serve the rummy companion as a web app, offline, and open a browser.

    python -m app                      # http://127.0.0.1:8550/ , opens a browser
    python -m app --host 0.0.0.0       # let phones on the same network join
    python -m app --port 8600 --data /tmp/games.json --no-browser

The web client is served from the installed ``flet-web`` wheel (``no_cdn``), so nothing is
fetched from the internet. The data file (TinyDB) defaults to the user's data directory.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

from app.lan import lan_address

APP_NAME = "rummy-referee"
DEFAULT_PORT = 8550
DEFAULT_HOST = "127.0.0.1"


def default_data_path() -> Path:
    """``<user data dir>/rummy-referee/games.json`` (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / "games.json"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line."""
    p = argparse.ArgumentParser(
        prog="python -m app",
        description="Rummy referee and score keeper: serves the app in a web browser.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (default 8550)")
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the network join)",
    )
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help=f"the games file (default {default_data_path()})",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return p.parse_args(argv)


def can_open_browser() -> bool:
    """False in CI and on a machine with no display."""
    if os.environ.get("CI"):
        return False
    return not (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    )


def port_free(host: str, port: int) -> bool:
    """Can ``host:port`` be bound right now? Bound with the host's address family
    (``::`` is IPv6; a name is looked up: every address it has must be free)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return False
    for family, kind, proto, _name, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(address)
            except OSError:
                return False
    return bool(infos)


def print_qr(url: str) -> None:
    """A QR code of ``url`` in the terminal, for phones on the same network to scan."""
    try:
        import qrcode

        qr = qrcode.QRCode(border=1)
        qr.add_data(url)
        print("Scan to open it on a phone on this network:", flush=True)
        qr.print_ascii(invert=True)
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - the QR code is a convenience
        pass


def _announce(
    host: str, port: int, urls: list[str], open_it: bool, host_url: str | None = None
) -> None:
    """Wait until the server accepts connections, print the URLs, open a browser."""
    probe = "127.0.0.1" if host in ("0.0.0.0", "", "*") else host
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection((probe, port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.05)
    for url in urls:
        print(f"Rummy referee is running at {url}", flush=True)
    if host_url is not None:
        print(
            f"The host's address (opens with the host's rights; keep it to yourself): {host_url}",
            flush=True,
        )
    if host in ("0.0.0.0", "::") and len(urls) > 1:
        print_qr(urls[0])  # the plain address: phones join with the game's code
    print("Press Ctrl+C to stop.", flush=True)
    if open_it:
        # this computer's own browser at the loopback address: its tab is the host's by its
        # connection, never counted against the limits of an address a phone (or a page
        # rebinding a name to the LAN address) shares
        from app import live  # lazy: start-up time (as in main)

        local = urls[-1] if host in ("0.0.0.0", "::") else urls[0]
        webbrowser.open(live.host_url(local) if host_url is not None else local)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m app`` and the ``rummy-referee`` script."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from app import live, log_hygiene  # lazy: start-up time (`--help` imports nothing)

    log_hygiene.install_log_hygiene()  # no join codes or player names in any log
    live.SERVER.host, live.SERVER.port = args.host, args.port
    from app import guard  # lazy: start-up time (`--help` imports nothing)

    # the session boundary: identity, limits; also builds the look-alike table for joined
    # names (app/guard_names.py) before any session waits for it (app/guard.py)
    guard.install()
    # room for many phones' sockets (a soft limit of 1024 ran out under a connection flood)
    guard.raise_open_files_limit()
    live.new_host_key()  # the host's key for this run, in the address opened here
    data: Path = args.data if args.data is not None else default_data_path()
    if not port_free(args.host, args.port):
        print(
            f"error: port {args.port} on {args.host} is in use "
            "(is the app already running? choose another with --port)",
            file=sys.stderr,
        )
        return 2

    from app.store import Store  # lazy: start-up time (a busy port stops before this)

    data.parent.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(data)
    except Exception as e:  # noqa: BLE001 - a locked or unreadable file: say why and stop
        print(f"error: cannot open {data}: {e}", file=sys.stderr)
        return 2

    log_hygiene.remember_names(store.known_players())
    from app import stats  # lazy: start-up time (a busy port stops before this)

    # the finished games summarised for the player pages while the server starts, so the first
    # player page opened after a start is as quick as later ones (app/stats.py)
    threading.Thread(target=_warm_stats, args=(stats, store), daemon=True).start()
    import flet as ft

    from app.main import make_main  # lazy: start-up time (a busy port stops before this)

    # The app decides itself whether to open a browser (not in CI, not headless).
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    os.environ["FLET_WEB_NO_CDN"] = "true"
    if args.host in ("0.0.0.0", "::"):
        lan = lan_address()
        urls = [f"http://{lan}:{args.port}/"] if lan else []
        urls.append(f"http://127.0.0.1:{args.port}/")
    else:
        urls = [f"http://{args.host}:{args.port}/"]
    print(f"Games file: {data}", flush=True)
    open_it = not args.no_browser and can_open_browser()
    key_url = live.host_url(urls[0])
    threading.Thread(
        target=_announce, args=(args.host, args.port, urls, open_it, key_url), daemon=True
    ).start()
    try:
        ft.run(
            make_main(store),
            view=ft.AppView.WEB_BROWSER,
            host=args.host,
            port=args.port,
            no_cdn=True,
        )
    finally:
        close = getattr(store, "close", None)
        if callable(close):
            close()
    return 0


def _warm_stats(stats: Any, store: Any) -> None:
    """:func:`app.stats.warm` for a server thread; a failure only leaves the pages to load cold."""
    try:
        stats.warm(store)
    except Exception:  # noqa: BLE001 - a nicety: a player page loads what it needs anyway
        logging.getLogger("app").debug("cannot summarise the games", exc_info=True)


if __name__ == "__main__":
    sys.exit(main())
