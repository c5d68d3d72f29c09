"""Smoke test of an installed wheel, run by ``.ci/run`` with the interpreter of a fresh virtual
environment outside the checkout (``python -I``: the checkout is not on the path).

    python -I wheel_smoke.py DATA_LIST

``DATA_LIST`` names a file listing, one per line, the data files of the checkout (every file of
``app/`` and ``rules/`` that is not Python, paths relative to the checkout). Checks, in order:

1. ``app`` and ``rules`` are imported from the installed copy, and every data file is in it;
2. a judge line: ``python -m rules judge`` answers a meld request;
3. rule books open (Gin in English and Polish), and the Polish catalogue translates;
4. the app serves: ``python -m app`` started headless on a free port answers ``GET /`` with
   the web page, then is stopped.

Prints one line per check and exits 0 when all pass, 1 otherwise.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def fail(message: str) -> None:
    print(f"wheel smoke: FAILED: {message}", flush=True)
    sys.exit(1)


def ok(message: str) -> None:
    print(f"wheel smoke: ok: {message}", flush=True)


def installed(data_list: Path) -> None:
    import app
    import rules

    site = Path(sys.prefix).resolve()
    for pkg in (app, rules):
        where = Path(pkg.__file__ or "").resolve()
        if site not in where.parents:
            fail(f"{pkg.__name__} imported from {where}, not from the environment {site}")
    root = Path(app.__file__ or "").resolve().parent.parent
    wanted = [line.strip() for line in data_list.read_text().splitlines() if line.strip()]
    if not wanted:
        fail("the list of data files is empty")
    missing = [p for p in wanted if not (root / p).is_file()]
    if missing:
        fail(f"{len(missing)} data files are not in the wheel: {', '.join(missing)}")
    ok(f"app and rules installed in {site}, with all {len(wanted)} data files")


def judge_line() -> None:
    request = {"check": "meld", "variant": "rummy101", "meld": ["R11", "R12", "JK"]}
    out = subprocess.run(
        [sys.executable, "-I", "-m", "rules", "judge"],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if out.returncode != 0:
        fail(f"python -m rules judge exited {out.returncode}: {out.stderr.strip()}")
    answer = json.loads(out.stdout.splitlines()[0])
    if not (answer.get("ok") and answer.get("valid") and answer.get("value") == 36):
        fail(f"the judge answered {answer}")
    ok(f"python -m rules judge: R11 R12 JK is a {answer.get('kind')} worth {answer['value']}")


def rule_books() -> None:
    from app import i18n, rulebook

    for lang in ("en", "pl"):
        book = rulebook.load("gin", lang)
        if not book.sections:
            fail(f"the gin rule book in {lang!r} has no sections")
    with i18n.use_language("pl"):
        if i18n._("New game") == "New game":
            fail("the Polish catalogue does not translate 'New game'")
    ok("rule books open (gin: en, pl); the Polish catalogue translates")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serves() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CI="true")
        cmd = [sys.executable, "-I", "-m", "app", "--port", str(port), "--no-browser"]
        cmd += ["--data", str(Path(tmp) / "games.json")]
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                cmd, cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            page, deadline = "", time.monotonic() + 120
            while time.monotonic() < deadline:
                if server.poll() is not None:
                    fail(f"the app stopped ({server.returncode}): {log.read_text()[-2000:]}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                        page = r.read().decode("utf-8", "replace")
                        status = r.status
                    break
                except OSError:
                    time.sleep(0.3)
            else:
                fail(f"the app did not answer on port {port}: {log.read_text()[-2000:]}")
            if status != 200 or "<html" not in page.lower() or "flutter" not in page.lower():
                fail(f"GET / answered {status}: {page[:300]!r}")
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                try:
                    server.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait()
    ok(f"python -m app served its page on port {port} ({len(page)} bytes), and stopped")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    installed(Path(sys.argv[1]))
    judge_line()
    rule_books()
    serves()
    print("wheel smoke: all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
