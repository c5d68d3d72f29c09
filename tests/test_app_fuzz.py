"""Hostile input for the app (issue 6, item 5: "the app's text fields and imported files").

- Imported files (:func:`app.games.import_json`): random bytes, random text (lone surrogates
  included), random JSON, and valid exports of every variant mutated (fields deleted, wrong
  types, huge numbers, odd unicode, deep nesting) always give a :class:`~app.games.Game` (that
  exports, scores and stores) or a one-line :class:`~app.games.GameImportError` — never another
  exception, never a hang (a watchdog alarm stops a call that runs away).
- Round entry: the text fields of every variant's form (``app/ui/entry/entry_forms.py``) and
  the piece keyboard (``app/ui/common/keyboard.py``) filled with random text, the choices picked
  at random, then
  "Show the scores" (``RoundEntry.check``): a message at the field / in the error box, or a
  valid round — never an exception. Driven without a page, as tests/test_views.py does.
- Names with odd unicode survive save / load / export / import through a real Store.
- The disk refusing a save (``os.replace`` failing with ENOSPC / EROFS): the round entry screen
  stays, says why, keeps what was typed, and nothing saved before is lost.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import games as g
from app import store as store_mod
from app.games import Game, GameError, GameImportError
from app.store import Store
from app.ui.common.keyboard import MeldsEditor, PieceKeyboard
from app.ui.common.widgets import ChoiceChips, Stepper
from app.ui.entry.entry_forms import FormError, PiecesInput, RestInput, _int_field
from app.ui.entry.round_entry import RoundEntry
from app.ui.sheet.score_sheet import ScoreSheet
from app.ui.shell import App
from tests.conftest import walk

pytestmark = pytest.mark.slow  # fuzzing: in .ci/run, not in the quick loop

VARIANTS = ("rummy101", "tile_rummy", "my_rummy", "gin", "carousel")
WATCHDOG_S = 20
"""Seconds one call may take before it counts as a hang (generous: the machine may be busy;
this bounds a runaway, it does not measure speed)."""

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Hung(Exception):
    pass


@contextlib.contextmanager
def watchdog(seconds: int = WATCHDOG_S) -> Iterator[None]:
    """Raise :class:`Hung` in the calling (main) thread after ``seconds``."""

    def ring(_sig: int, _frame: Any) -> None:
        raise Hung(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# -- valid exports of every variant (RULES.md §3–§6 examples, as in tests/test_store.py) --------
R101 = {
    "finish": "normal",
    "players": [
        {"name": "Ala", "winner": True},
        {"name": "Ola", "opened": "melds", "hand": ["R5", "B7"]},
        {"name": "Ela", "opened": "none", "hand": ["K1"]},
    ],
}
TILE = {"players": [{"name": "A", "winner": True}, {"name": "B", "hand": ["R5", "JK"]}]}
GIN = {
    "knocker": "A",
    "players": [{"name": "A", "deadwood": 0, "gin": True}, {"name": "B", "deadwood": 20}],
}
CAROUSEL = {
    "knocker": "A",
    "players": [{"name": "A", "hand": ["3S"]}, {"name": "B", "hand": ["9D"]}],
}
SAMPLES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "rummy101": (["Ala", "Ola", "Ela"], R101),
    "tile_rummy": (["A", "B"], TILE),
    "my_rummy": (["A", "B"], TILE),
    "gin": (["A", "B"], GIN),
    "carousel": (["A", "B"], CAROUSEL),
}


def sample_export(variant: str, rounds: int = 2) -> dict[str, Any]:
    players, entry = SAMPLES[variant]
    game = g.new_game(variant, players, notes="Friday at Ola's")
    for _ in range(rounds):
        game = g.add_round(game, entry)
    doc: dict[str, Any] = json.loads(g.export_json(game))
    return doc


EXPORTS = {v: sample_export(v) for v in VARIANTS}


def test_the_sample_exports_import() -> None:
    for variant, doc in EXPORTS.items():
        game = g.import_json(json.dumps(doc))
        assert game.variant == variant and len(game.rounds) == 2


# -- hostile values ------------------------------------------------------------------------------
SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
ODD_CHARS = st.one_of(
    st.characters(),  # any code point but surrogates
    SURROGATES,
    st.sampled_from(
        [
            "\u0000",
            "\u200b",  # zero-width space
            "\u202e",  # right-to-left override
            "\ufeff",
            "\u0301",  # combining accent
            "\U0001f600",
            "\u2212",  # minus sign
            "\uff11",  # fullwidth 1
            "\u0663",  # Arabic-Indic 3
            "\n",
            "\t",
        ]
    ),
)
ODD_TEXT = st.text(ODD_CHARS, max_size=30)
HUGE_INTS = st.sampled_from([10**30, -(10**30), 2**63, -(2**63) - 1, 10**4000])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    HUGE_INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    ODD_TEXT,
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
DEEP = "__deep__"
"""A value replaced by deeply nested brackets in the JSON text."""


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc`` (dict keys and list indexes)."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*prefix, i))
    return out


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


@st.composite
def mutated_exports(draw: st.DrawFn) -> str:
    """A valid export of some variant with one to four mutations, as JSON text."""
    doc = json.loads(json.dumps(EXPORTS[draw(st.sampled_from(VARIANTS))]))
    deep_depth = 0
    for _ in range(draw(st.integers(1, 4))):
        targets = paths(doc)[1:]
        if not targets:
            break
        where = draw(st.sampled_from(targets))
        parent, key = get(doc, where[:-1]), where[-1]
        action = draw(st.sampled_from(["delete", "replace", "replace", "wrap", "deep", "dup"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = draw(JSON_VALUES)
        elif action == "wrap":
            parent[key] = draw(st.sampled_from([[parent[key]], {"value": parent[key]}]))
        elif action == "deep":
            parent[key] = DEEP
            deep_depth = draw(st.sampled_from([50, 900, 5000, 200_000]))
        elif isinstance(parent, list):  # dup: a list grows (rounds, players, hands)
            parent.extend([parent[key]] * draw(st.integers(1, 1200)))
        else:
            parent[key] = [parent[key]] * draw(st.integers(2, 30))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    if deep_depth:
        text = text.replace(json.dumps(DEEP), "[" * deep_depth + "]" * deep_depth, 1)
    return text


def check_import(data: str | bytes) -> None:
    """import_json gives a usable Game or a clear GameImportError; nothing else."""
    try:
        with watchdog():
            game = g.import_json(data)
    except GameImportError as e:
        msg = e.message
        assert isinstance(msg, str) and msg.strip(), repr(e)
        assert "\n" not in msg and len(msg) <= 400, msg
        assert "Traceback" not in msg
        return
    assert isinstance(game, Game)
    # what was imported must be usable: standings, export, export → import, storable text
    with watchdog():
        g.standings(game)
        text = g.export_json(game)
    text.encode("utf-8")  # the store and downloads write UTF-8: no lone surrogates
    again = g.import_json(text)
    assert [r.scores for r in again.rounds] == [r.scores for r in game.rounds]
    assert again.players == game.players and again.notes == game.notes


@FUZZ
@given(st.binary(max_size=300))
def test_import_random_bytes(data: bytes) -> None:
    check_import(data)


@FUZZ
@given(st.text(ODD_CHARS, max_size=300))
def test_import_random_text(text: str) -> None:
    check_import(text)


@FUZZ
@given(JSON_VALUES)
def test_import_random_json(value: Any) -> None:
    check_import(json.dumps(value))
    check_import(json.dumps({"format": g.EXPORT_FORMAT, "format_version": 1, "game": value}))


@settings(FUZZ, max_examples=400)
@given(mutated_exports())
def test_import_mutated_exports(text: str) -> None:
    check_import(text)
    with contextlib.suppress(UnicodeEncodeError):  # text holding a lone surrogate
        check_import(text.encode("utf-8"))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "9" * 5000,
        '{"format": "rummy-referee-game", "format_version": 1e400}',
        '{"format": "rummy-referee-game", "format_version": NaN}',
        "\ufeff\ufeff{}",
        "",
        "\ud800",
    ],
)
def test_import_edge_cases(text: str) -> None:
    check_import(text)


def _with(variant: str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(EXPORTS[variant]))
    change(doc["game"])
    return doc


LONE_SURROGATES = {
    # JSON may spell a lone surrogate ("\\ud800"); no UTF-8 file can hold one, so the store
    # could not save such a game: found by this fuzzing (a crash in Store.create_game)
    "game.notes": _with("gin", lambda d: d.update(notes="Fri\ud800")),
    "game.rounds[0].entry.comment": _with(
        "gin", lambda d: d["rounds"][0]["entry"].update(comment="\udfff")
    ),
    "game.rounds[1].entry.players[0].note": _with(
        "tile_rummy", lambda d: d["rounds"][1]["entry"]["players"][0].update(note="\udc80x")
    ),
}


@pytest.mark.parametrize("where", sorted(LONE_SURROGATES))
@pytest.mark.parametrize("ascii_only", [True, False])
def test_import_refuses_lone_surrogates(where: str, ascii_only: bool) -> None:
    text = json.dumps(LONE_SURROGATES[where], ensure_ascii=ascii_only)
    with pytest.raises(GameImportError) as e:
        g.import_json(text)
    assert e.value.message == f"the file has broken text (a lone surrogate) at {where}"
    # a surrogate pair is a real character (U+1F600) and is kept
    doc = _with("gin", lambda d: d.update(notes="\ud83d\ude00"))
    assert g.import_json(json.dumps(doc)).notes == "\U0001f600"


def test_lone_surrogates_are_refused_before_the_store() -> None:
    with pytest.raises(GameError) as e:
        g.new_game("gin", ["A", "B"], notes="\ud800")
    assert e.value.code == "bad_notes"
    game = g.new_game("gin", ["A", "B"])
    result = g.score_round(game, {**GIN, "comment": "\ud800"})
    assert not result.valid and result.reason == "bad_entry"


def test_long_values_are_cut_in_import_messages() -> None:
    doc = _with("gin", lambda d: d.update(variant="x" * 1_000_000))
    with pytest.raises(GameImportError) as e:
        g.import_json(json.dumps(doc))
    msg = e.value.message
    assert len(msg) <= g.MAX_IMPORT_MESSAGE and msg.startswith("game: unknown variant 'xxx")
    assert msg.endswith("(variants: rummy101, tile_rummy, my_rummy, gin, carousel)")


# -- round entry screens with random typing ------------------------------------------------------
NOTATION_TOKENS = st.sampled_from(
    [
        "R5",
        "B13",
        "K1",
        "Y7",
        "JK",
        "jk",
        "r5",
        "R14",
        "R0",
        "R-1",
        "AS",
        "10H",
        "KD",
        "QC",
        "1X",
        "?7",
        "R5R6",
        "-3",
        "12",
        "0",
        "99999999999999999999",
        "1_000",
        "\u22125",
        "\uff11\uff12",
        "\u0663",
        "R\u0663",
        "\u0000",
        "\U0001f0cf",
        ",",
        ";",
        "players[1]",
    ]
)
TYPED = st.one_of(
    st.integers(0, 150).map(str),  # a plausible rest in points
    st.lists(NOTATION_TOKENS, max_size=25).map(" ".join),
    st.text(ODD_CHARS, max_size=40),
)


def widgets_of(obj: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """The ChoiceChips and Steppers held by a form (in its attributes, dicts and parts)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, ChoiceChips | Stepper):
        yield obj
        return
    if isinstance(obj, dict):
        for v in obj.values():
            yield from widgets_of(v, seen)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from widgets_of(v, seen)
    elif type(obj).__module__.startswith("app.ui.") and hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            yield from widgets_of(v, seen)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = Store(tmp_path_factory.mktemp("fuzz") / "games.json")
    yield s
    s.close()


@pytest.fixture(scope="module")
def games_by_variant(store: Store) -> dict[str, Game]:
    out = {}
    for variant in VARIANTS:
        players = ["Ala", "Bob", "Cy"] if variant in ("rummy101", "tile_rummy") else ["Ala", "Bob"]
        out[variant] = store.create_game(g.new_game(variant, players))
    return out


def assert_flagged(screen: RoundEntry) -> None:
    """A refused round says why: in the error box or at a field."""
    box = screen.error.content
    assert isinstance(box, ft.Text)
    errors = [
        c.error
        for ctl in screen.form.controls
        for c in walk(ctl)
        if isinstance(c, ft.TextField) and c.error
    ]
    assert (screen.error.visible and box.value) or errors


@FUZZ
@given(
    variant=st.sampled_from(VARIANTS),
    typed=st.lists(TYPED, min_size=12, max_size=12),
    picks=st.lists(st.integers(0, 10), min_size=16, max_size=16),
)
def test_round_entry_with_random_typing(
    store: Store,
    games_by_variant: dict[str, Game],
    variant: str,
    typed: list[str],
    picks: list[int],
) -> None:
    """Every field of the variant's form typed at random, every choice picked at random:
    "Show the scores" flags a field / says why, or shows a valid round — no exception."""
    app = App(store)
    game = games_by_variant[variant]
    screen = RoundEntry(app, game)
    pick = iter(picks * 4)
    for w in widgets_of(screen.form):
        if isinstance(w, ChoiceChips):
            keys = [None, *w.chips]
            w.pick(keys[next(pick) % len(keys)])
        else:
            w.set(w.lo + next(pick) % (w.hi - w.lo + 1), notify=True)
    fields = [c for ctl in screen.form.controls for c in walk(ctl) if isinstance(c, ft.TextField)]
    for i, field in enumerate(fields):
        field.value = typed[i % len(typed)]
        if field.on_change is not None:
            field.on_change(None)  # what typing does: gin hands are analysed as typed
    with watchdog():
        ok = screen.check()
    if ok:
        assert screen.result is not None and screen.result.valid
        assert screen.save_button.visible
    else:
        assert_flagged(screen)
    assert store.load_game(game.id).rounds == []  # checking saves nothing


@FUZZ
@given(variant=st.sampled_from(VARIANTS), text=TYPED, allow_empty=st.booleans())
def test_pieces_field_reads_or_flags(variant: str, text: str, allow_empty: bool) -> None:
    box = PiecesInput(variant, 2, "Hand", "R5", lambda: None)
    box.field.value = text
    try:
        pieces = box.read(allow_empty=allow_empty)
    except FormError as e:
        assert box.field.error and str(e) == box.field.error
        return
    assert box.field.error is None
    assert all(isinstance(p, str) and p for p in pieces)
    box.field.value = " ".join(pieces)  # canonical notation reads back the same
    assert box.read(allow_empty=True) == pieces


@FUZZ
@given(text=TYPED, lo=st.integers(-5, 5))
def test_number_field_reads_or_flags(text: str, lo: int) -> None:
    field = ft.TextField(value=text)
    try:
        value = _int_field(field, lo, 2000)
    except FormError as e:
        assert field.error and str(e) == field.error
        return
    assert lo <= value <= 2000 and field.error is None


@FUZZ
@given(variant=st.sampled_from(VARIANTS), text=TYPED)
def test_rest_input_reads_or_flags(variant: str, text: str) -> None:
    if variant in ("gin", "carousel"):
        variant = "rummy101"  # RestInput is the tile games' rack
    rest = RestInput(variant, 2, "Ala", lambda: None)
    for mode in ("value", "tiles"):
        rest.mode.pick(mode)
        rest.value.value = text
        rest.tiles.field.value = text
        try:
            got = rest.read()
        except FormError:
            assert rest.value.error or rest.tiles.field.error
            continue
        assert ("hand" in got) == (mode == "tiles")


@FUZZ
@given(
    variant=st.sampled_from(VARIANTS),
    texts=st.lists(TYPED, min_size=1, max_size=4),
    codes=st.lists(st.one_of(NOTATION_TOKENS, ODD_TEXT), max_size=6),
    max_pieces=st.sampled_from([None, 1, 3]),
)
def test_piece_keyboard_typing_and_keys(
    variant: str, texts: list[str], codes: list[str], max_pieces: int | None
) -> None:
    """Typing into the keyboard's field keeps the good pieces and names the first bad one;
    ``add`` takes a piece or says why; every key works."""
    changes: list[int] = []
    kb = PieceKeyboard(variant, "Meld", lambda: changes.append(1), max_pieces=max_pieces)
    for text in texts:
        kb.type_text(text)
        assert max_pieces is None or len(kb.pieces) <= max_pieces
        assert kb.field.error is None or isinstance(kb.field.error, str)
        kb.set_pieces(kb.value)  # what was kept is valid notation
    for code in codes:
        assert kb.add(code) in (True, False)
    for letter in kb.families:
        kb.pick_family(letter)
        kb.press_number(13)
    kb.press_joker()
    kb.backspace()
    assert isinstance(kb.spoken(), str)
    kb.clear()
    assert kb.value == []


@FUZZ
@given(variant=st.sampled_from(VARIANTS), texts=st.lists(TYPED, min_size=1, max_size=4))
def test_melds_editor_typing(variant: str, texts: list[str]) -> None:
    editor = MeldsEditor(variant, "Table", lambda: None)
    for text in texts:
        editor.keyboard.type_text(text)
        editor.new_meld()
    editor.select(0)
    editor.remove_meld()
    assert all(isinstance(m, list) for m in editor.value)


# -- names with odd unicode through the store ----------------------------------------------------
NAMES = st.text(ODD_CHARS, min_size=1, max_size=45)


@settings(FUZZ, max_examples=60)
@given(names=st.lists(NAMES, min_size=2, max_size=2), notes=st.text(ODD_CHARS, max_size=60))
def test_odd_names_survive_save_load_export(
    tmp_path_factory: pytest.TempPathFactory, names: list[str], notes: str
) -> None:
    """A name is refused with a GameError naming it, or kept exactly through the store,
    the games list, the player list, export and import."""
    try:
        game = g.new_game("tile_rummy", names, notes=notes)
    except GameError as e:
        assert e.code in ("bad_player_name", "duplicate_player", "bad_notes"), e.code
        assert "\n" not in e.message or e.code == "bad_player_name"
        return
    a, b = game.players
    path = tmp_path_factory.mktemp("names") / "games.json"
    with Store(path) as s:
        stored = s.create_game(game)
        entry = {"players": [{"name": a, "winner": True}, {"name": b, "hand": ["R5", "JK"]}]}
        s.save_game(g.add_round(stored, entry))
    with Store(path) as s:  # a fresh start reads it back
        [summary] = s.list_games()
        loaded = s.load_game(summary.id)
        assert loaded.players == game.players and loaded.notes == notes
        assert list(summary.players) == game.players
        assert set(game.players) <= set(s.known_players())
        assert loaded.rounds[0].scores == {a: 35, b: -35}  # RULES.md §4: R5 + joker 30
        again = s.create_game(g.import_json(g.export_json(loaded).encode("utf-8")))
        assert again.players == game.players and again.notes == notes
        assert again.rounds[0].scores == loaded.rounds[0].scores


# -- the disk refuses a save at the round entry screen -------------------------------------------
ALA_WINS = {"players": [{"name": "Ala", "winner": True}, {"name": "Bob", "hand": ["R5", "JK"]}]}


def failing_replace(code: int) -> Callable[..., None]:
    def replace(*_a: Any, **_k: Any) -> None:
        raise OSError(code, os.strerror(code))

    return replace


@pytest.mark.parametrize(
    ("code", "words"), [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read-only")]
)
def test_round_entry_keeps_the_round_when_the_disk_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    with Store(tmp_path / "games.json") as s:
        app = App(s)
        game = s.create_game(g.new_game("tile_rummy", ["Ala", "Bob"]))
        game = s.save_game(g.add_round(game, ALA_WINS))
        app.go(f"/game/{game.id}/round")
        screen = app.screen
        assert isinstance(screen, RoundEntry)
        f: Any = screen.form
        f.outcome.pick("Bob")
        f.rests["Ala"].mode.pick("tiles")
        f.rests["Ala"].tiles.field.value = "R1 R2"
        assert screen.check()
        before = (s.path.read_bytes(), sorted(p.name for p in s.games_dir.iterdir()))
        game_file = s.games_dir / f"{game.id}.json"
        saved = game_file.read_bytes()

        monkeypatch.setattr(store_mod.os, "replace", failing_replace(code))
        screen.save()
        # the screen stays with what was typed, and says why in its error box
        assert app.screen is screen
        box = screen.error.content
        assert isinstance(box, ft.Text) and screen.error.visible
        assert words in box.value and "nothing was changed" in box.value, box.value
        assert app.messages[-1].startswith("Could not save")
        assert f.rests["Ala"].tiles.field.value == "R1 R2" and f.outcome.value == "Bob"
        # nothing already saved is lost or changed, and no temp file is left
        assert (s.path.read_bytes(), sorted(p.name for p in s.games_dir.iterdir())) == before
        assert game_file.read_bytes() == saved
        assert len(s.load_game(game.id).rounds) == 1

        # space freed: the same screen saves the round
        monkeypatch.undo()
        screen.save()
        assert isinstance(app.screen, ScoreSheet)
        assert [r.scores for r in s.load_game(game.id).rounds] == [
            {"Ala": 35, "Bob": -35},
            {"Ala": -3, "Bob": 3},
        ]
    with Store(tmp_path / "games.json") as s:
        assert len(s.load_game(game.id).rounds) == 2
