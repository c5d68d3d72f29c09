"""Typing fast into a text field, over the real connection (new-user tester, finding 1): the
host's phone sent a change per key at ~15 ms while the server was busy; the handlers piled
up past the per-connection cap and the connection was closed as a flood, so the field showed
every card and the app still read the value of 8 keys earlier. Now a field's change that is
still waiting to run is not queued again (it reads the field's latest value when it runs:
the last value wins) and the host's own phone has no cap on waiting handlers."""

from __future__ import annotations

import asyncio

from tests.test_attack import Raw, Served, attack, served

__all__ = ["served"]

MELD = "R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"


def test_a_burst_of_keys_is_read_to_the_last_value(served: Served) -> None:
    async def body(witness: Raw) -> None:
        await witness.go("/check/meld?variant=tile_rummy")
        assert await witness.wait(lambda: witness.find("TextField", label="Meld"))
        field = witness.find("TextField", label="Meld")[0]
        # every key at once, as a phone sends them while the server is busy: the value,
        # then the change event (what Flutter sends per key), 3 times over
        for _ in range(3):
            for n in range(1, len(MELD) + 1):
                await witness.props(field, {"value": MELD[:n]})
                await witness.event(field, "change", MELD[:n])
        # RULES.md §4: R3…R13 is a run of 11 tiles, 3 + 4 + … + 13 = 88 points
        assert await witness.wait(lambda: witness.saw("^88 points$"))
        assert not witness.closed.is_set()
        await asyncio.sleep(0)

    attack(served, body)
