"""The log mask (app.log_hygiene): names and codes masked at once, long names whole, bounded
memory and cost, and no deadlock when a log record is made while the mask is being changed (a
hostile-phone tester froze the server that way: a garbage collection inside the pattern's
compile made asyncio log a destroyed task, which asked for the mask's lock again)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest

from app import log_hygiene as lh


@pytest.fixture(autouse=True)
def fresh_mask() -> Iterator[None]:
    lh.wait_for_compile()
    saved = (dict(lh._secrets), dict(lh._names), lh._state)
    lh._secrets.clear()
    lh._names.clear()
    lh._state = (None, ())
    yield
    lh.wait_for_compile()
    lh._secrets.clear()
    lh._secrets.update(saved[0])
    lh._names.clear()
    lh._names.update(saved[1])
    lh._state = saved[2]


def test_a_name_and_a_code_are_masked_at_once() -> None:
    lh.remember_names(["Zofia"])
    lh.remember_secret("ABCD2345")
    assert lh.redact("Zofia joined with ABCD2345") == "*** joined with ***"
    assert lh.redact("Zofiana stays") == "Zofiana stays"  # a whole word only


@pytest.mark.parametrize("order", [("Ala", "Ala Kowalska"), ("Ala Kowalska", "Ala")])
@pytest.mark.parametrize("compiled", [False, True])
def test_a_longer_name_is_masked_whole_whichever_came_first(
    order: tuple[str, str], compiled: bool
) -> None:
    lh.remember_names([order[0]])
    if compiled:  # the first name is in the compiled pattern, the second one waits
        lh.remember_names([f"Filler{i}" for i in range(lh.BATCH + 1)])
        lh.wait_for_compile()
        assert lh._state[0] is not None
    lh.remember_names([order[1]])
    assert lh.redact("Ala Kowalska won; Ala too") == "*** won; *** too"


def test_many_names_are_compiled_off_the_caller_and_all_stay_masked() -> None:
    names = [f"Gracz{i:04d}" for i in range(300)]
    for n in names:
        lh.remember_names([n])
    lh.wait_for_compile()
    base, pending = lh._state
    assert base is not None and len(pending) <= lh.BATCH
    text = " ".join(names)
    assert set(lh.redact(text).split()) == {"***"}


@pytest.mark.slow
def test_names_are_capped_and_the_most_recent_kept() -> None:
    lh.remember_names(["Babcia"])
    for i in range(lh.MAX_NAMES + 50):
        lh.remember_names([f"Visitor{i}"])
        if i % 500 == 0:
            lh.remember_names(["Babcia"])  # seen again: kept
    assert len(lh._names) == lh.MAX_NAMES
    assert "Babcia" in lh._names and "Visitor0" not in lh._names
    lh.wait_for_compile()
    assert lh.redact("Babcia") == "***"


def test_a_record_made_while_the_mask_changes_does_not_wait_for_it() -> None:
    """A log record made on a thread that holds the writers' lock (what the garbage collector
    did inside the compile) is masked without the lock."""
    lh.install_log_hygiene()
    lh.remember_names(["Jadwiga"])
    got: list[str] = []

    def log_inside() -> None:
        with lh._lock:
            record = logging.getLogger("app.test").makeRecord(
                "app.test", logging.ERROR, __file__, 1, "Task of %s destroyed", ("Jadwiga",), None
            )
            got.append(record.getMessage())

    worker = threading.Thread(target=log_inside, daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "a log record waited for the mask's lock"
    assert got == ["Task of *** destroyed"]


def test_a_collection_during_a_change_that_logs_does_not_deadlock() -> None:
    """The tester's path end to end: a garbage-collector callback that logs (as asyncio's
    destroyed-task report does) fires while names are remembered and compiled."""
    import gc

    lh.install_log_hygiene()
    logger = logging.getLogger("app.test.gc")
    logger.setLevel(logging.DEBUG)  # records are made (and masked) ...
    logger.propagate = False
    logger.addHandler(logging.NullHandler())  # ... and dropped
    fired: list[int] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and len(fired) < 200:
            fired.append(1)
            logger.debug("collecting near %s", "Jadwiga")

    def churn() -> None:
        for i in range(400):
            lh.remember_names([f"Name{i}", "Jadwiga"])
            _ = [[j] for j in range(2000)]  # garbage enough for collections
        lh.wait_for_compile()

    gc.callbacks.append(on_gc)
    try:
        worker = threading.Thread(target=churn, daemon=True)
        worker.start()
        worker.join(120)
        assert not worker.is_alive(), "remembering names deadlocked"
    finally:
        gc.callbacks.remove(on_gc)
    assert fired


def test_a_storage_read_the_browser_never_answers_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser closed (or a connection the guard closed) while the theme was being read
    never answers: the read ends after the client timeout instead of staying pending until
    its session is dropped (asyncio then logs "Task was destroyed but it is pending!", 440
    bytes per closed connection in the tester's flood, and the collection that finds it is
    what re-entered the log mask)."""
    import asyncio

    from app.ui.common import session
    from app.ui.home import settings

    class NeverAnswers:
        async def get(self, key: str) -> None:
            await asyncio.Event().wait()

    monkeypatch.setattr(settings.ft, "SharedPreferences", NeverAnswers)
    monkeypatch.setattr(session, "CLIENT_TIMEOUT", 0.2)
    loop = asyncio.new_event_loop()
    tasks: list[asyncio.Task[None]] = []

    class Page:
        session = None

        def run_task(self, make: object) -> None:
            tasks.append(loop.create_task(make()))  # type: ignore[operator]

    class App:
        page = Page()

        def run(self, make: object) -> None:
            self.page.run_task(make)

    try:
        settings.restore_theme(App())  # type: ignore[arg-type]
        loop.run_until_complete(asyncio.sleep(1.0))
        assert tasks and all(t.done() for t in tasks)
    finally:
        loop.close()
