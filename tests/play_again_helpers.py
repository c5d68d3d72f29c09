"""Sessions round a finished game, for the tests of "Play again with the same players".

Shared by tests/test_watchers_play_again.py (phones following the new game) and
tests/test_attack_play_again.py (a hostile phone after play-again). Sessions are Apps without a
page: rights are decided by the server-side :class:`app.live.SessionStore`, a change is
delivered at once, in the writer's call. The finished game is a Tile Rummy series (RULES.md §4)
of tests/test_flow.py's rounds A and E, ended by the players: Ala wins.
"""

from __future__ import annotations

from app import games, live
from app.games import Game
from app.store import Store
from app.ui.sheet import game_end
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from app.ui.table import sharing
from tests.test_flow import PLAYERS, ROUND_A, ROUND_E

HOST_IP = "127.0.0.1"  # the host's own machine


def session(store: Store, hub: live.Hub, host: bool, ip: str) -> App:
    """An App on ``store`` as the visitor at ``ip`` (the host's own machine if ``host``),
    attached to ``hub`` so that it follows the others' changes."""
    visitor = live.Visitor(ip=ip, host=host)
    app = App(live.SessionStore(store, sharing.access_for(store), visitor, hub))
    sharing.attach(app, hub)
    return app


def ss_of(app: App) -> live.SessionStore:
    """The session store behind ``app`` (a session made by :func:`session`)."""
    ss = sharing.session_of(app)
    assert ss is not None
    return ss


def ended_series(host: App) -> Game:
    """The finished game, stored through ``host``'s session: rounds A and E, then ended."""
    game = games.new_game("tile_rummy", PLAYERS)
    for entry in (ROUND_A, ROUND_E):
        game = games.add_round(game, entry)
    stored = host.store.create_game(game)
    return host.store.save_game(game_end.end_now(stored), stored.version)


def sheet(app: App) -> ScoreSheet:
    """The score sheet ``app`` shows (fails if it shows another screen)."""
    screen = app.screen
    assert isinstance(screen, ScoreSheet)
    return screen


def play_again(host: App, game: Game, times: int = 1) -> str:
    """The host opens ``game`` and taps "Play again with the same players" ``times`` times
    (the same button, tapped again before the screen changed); the id of the game it opens."""
    host.go(f"/game/{game.id}")
    again = sheet(host).end_actions
    assert again.again_button is not None
    for _ in range(times):
        again.play_again()
    new_id = host.route.split("/")[2]
    assert new_id != game.id
    return new_id


def joined_phone(
    store: Store, hub: live.Hub, game: Game, code: str, ip: str, name: str = ""
) -> App:
    """A phone at ``ip`` that joined ``game`` with ``code`` (as player ``name``, if given)."""
    phone = session(store, hub, False, ip)
    assert ss_of(phone).join(game.id, code, name) == game.id
    return phone
