"""Every variant's description (rules.variant.REGISTRY) says what the judge does.

The descriptions are data; these tests hold each fact against the judge's own answers (player
counts, checks answered, presets, option ranges, copy limits, the end of a game, penalty
draws, rule sections), and the app's adapter (app.games.variants) against the descriptions.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from app.games import variants as app_variants
from rules import judge
from rules.errors import OptionError
from rules.options import (
    VARIANTS,
    TileRummyOptions,
    option_choices,
    option_range,
    options_dict,
    options_for,
)
from rules.request import Request
from rules.variant import (
    BUILT_IN,
    CHECK_NAMES,
    REGISTRY,
    Variant,
    VariantRules,
    find_variant,
    meld_rules,
    piece_set,
    variants_answering,
)

NAMES = [v.name for v in BUILT_IN]
"""The five of the rule book (a variant a module adds has tests of its own)."""
CARDS = [f"{r}{s}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]


def ask(request: dict[str, Any]) -> dict[str, Any]:
    return judge.answer(request)


# -- the registry itself ---------------------------------------------------------------------
def test_registry_holds_the_five_variants_in_order() -> None:
    assert tuple(v.name for v in REGISTRY) == VARIANTS
    assert NAMES == ["rummy101", "tile_rummy", "my_rummy", "gin", "carousel"]
    assert REGISTRY[: len(BUILT_IN)] == BUILT_IN  # a variant a module adds comes after them
    assert [find_variant(v.name) for v in REGISTRY] == list(REGISTRY)
    assert len({v.display_name for v in REGISTRY}) == len(REGISTRY)


@pytest.mark.parametrize("bad", ["poker", "", "GIN", None, 3, ["gin"]])
def test_an_unknown_name_is_refused_naming_the_variants(bad: object) -> None:
    with pytest.raises(OptionError) as e:
        find_variant(bad)
    assert e.value.code == "unknown_variant"
    assert "rummy101, tile_rummy, my_rummy, gin, carousel" in e.value.message


def test_the_name_keyed_tables_are_gone() -> None:
    """Nothing looks a variant's facts up by its name any more: the registry is the one
    table (issue 14)."""
    import rules.options
    import rules.variant

    for module, names in (
        (rules.options, ("PRESETS", "DEFAULT_PRESET")),
        (rules.variant, ("MELD_RULES", "PLAYER_COUNTS", "DISPLAY_NAMES")),
        (judge, ("CHECKS",)),
    ):
        for name in names:
            assert not hasattr(module, name), (module.__name__, name)
    for v in REGISTRY:
        assert v.meld_rules is meld_rules(v.name)
        assert list(v.presets)[0] == v.default_preset
        assert piece_set(v.name, 3) is v.piece_set(3)
    for check in CHECK_NAMES:
        assert set(variants_answering(check)) == {v.name for v in REGISTRY if v.answers(check)}


def test_every_variant_has_the_one_signature_of_the_protocol() -> None:
    for v in REGISTRY:
        assert isinstance(v, VariantRules)


# -- player counts, against the judge's round check ------------------------------------------
def _round(variant: str, n: int) -> dict[str, Any]:
    names = [f"P{i}" for i in range(n)]
    if variant == "rummy101":
        players: list[dict[str, Any]] = [{"name": names[0], "winner": True}]
        players += [
            {"name": p, "opened": "melds", "hand": [f"R{i}"]} for i, p in enumerate(names[1:], 1)
        ]
        return {"check": "round", "variant": variant, "finish": "normal", "players": players}
    if variant in ("tile_rummy", "my_rummy"):
        players = [{"name": names[0], "winner": True}]
        players += [{"name": p, "hand": [f"B{i}"]} for i, p in enumerate(names[1:], 1)]
        return {"check": "round", "variant": variant, "players": players}
    if variant == "carousel":
        players = [{"name": p, "hand": [CARDS[i + 1]]} for i, p in enumerate(names)]
        return {"check": "round", "variant": variant, "knocker": names[0], "players": players}
    hands = [" ".join(CARDS[10 * i : 10 * i + 10]) for i in range(n)]
    players = [{"name": p, "hand": h} for p, h in zip(names, hands, strict=True)]
    return {"check": "round", "variant": variant, "knocker": names[0], "players": players}


@pytest.mark.parametrize("variant", NAMES)
def test_player_counts_are_the_ones_the_judge_scores(variant: str) -> None:
    lo, hi = find_variant(variant).players
    for n in range(1, hi + 2):
        got = ask(_round(variant, n))
        scored = got.get("ok") is True and got.get("valid") is True
        assert scored == (lo <= n <= hi), (n, got.get("reason"), got.get("message"))


# -- the checks it answers ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
@pytest.mark.parametrize("check", CHECK_NAMES)
def test_the_checks_it_answers_are_the_ones_the_judge_answers(variant: str, check: str) -> None:
    got = ask({"check": check, "variant": variant})
    refused = got.get("error") == "unsupported_check"
    assert refused == (not find_variant(variant).answers(check)), got
    if refused:  # the answer names the variants that do answer it
        assert got["params"]["variants"] == ", ".join(variants_answering(check))


def test_the_variants_function_gives_the_judges_answer() -> None:
    request = _round("tile_rummy", 3)
    v = find_variant("tile_rummy")
    assert {"ok": True, **v.score_round(Request(request))} == ask(request)
    game = {"check": "game", "variant": "gin", "players": ["A", "B"], "rounds": []}
    assert {"ok": True, **find_variant("gin").score_game(Request(game))} == ask(game)
    with pytest.raises(Exception) as e:  # a check it does not answer
        find_variant("gin").judge_turn(Request({"check": "turn", "variant": "gin"}))
    assert getattr(e.value, "code", None) == "unsupported_check"


def test_the_message_lists_turn_and_split_variants_as_it_always_did() -> None:
    def five(check: str) -> tuple[str, ...]:  # a variant a module adds is named after them
        got = variants_answering(check)
        assert all(n in NAMES for n in got[: len(got) - len(REGISTRY) + len(BUILT_IN)])
        return tuple(n for n in got if n in NAMES)

    assert five("turn") == ("tile_rummy", "my_rummy", "carousel", "rummy101")
    assert five("split") == ("tile_rummy", "my_rummy", "rummy101", "carousel")
    assert five("hand") == ("gin", "carousel")
    assert five("opening") == ("rummy101", "tile_rummy", "my_rummy")


# -- options and presets -----------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
def test_presets_are_valid_options_of_the_variant(variant: str) -> None:
    v = find_variant(variant)
    assert v.options() is next(iter(v.presets.values())) == options_for(variant)
    for name, preset in v.presets.items():
        assert isinstance(preset, v.options_type) and preset.preset == name
        assert v.options({"preset": name}) == preset
        values = options_dict(preset)
        # every value of the preset, given again as an override, is accepted as it is
        given = {k: x for k, x in values.items() if k != "preset"}
        assert v.options({"preset": name, **given}) == preset
        got = ask({"check": "game", "variant": variant, "options": values, "players": ["A", "B"],
                   "rounds": []})  # fmt: skip
        assert got["ok"] is True, got
        for option in v.option_names:
            value = getattr(preset, option)
            rng = v.option_range(option)
            if rng is not None and value is not None:
                assert rng[0] <= value <= rng[1], (name, option)
            choices = v.option_choices(option)
            if choices is not None:
                assert value in choices, (name, option)


@pytest.mark.parametrize("variant", NAMES)
def test_option_ranges_are_the_ones_the_judge_enforces(variant: str) -> None:
    v = find_variant(variant)
    for option in v.option_names:
        rng = v.option_range(option)
        if rng is None:
            continue
        lo, hi = rng
        for value, ok in ((lo, True), (hi, True), (lo - 1, False), (hi + 1, False)):
            got = ask(
                {
                    "check": "game",
                    "variant": variant,
                    "options": {option: value},
                    "players": ["A", "B"],
                    "rounds": [],
                }  # fmt: skip
            )
            assert (got["ok"] is True) == ok, (option, value, got)
            if not ok:
                assert got["error"] == "bad_option"


def test_option_ranges_and_choices_come_from_the_options_fields() -> None:
    assert option_range(TileRummyOptions, "turn_time") == (20, 120)
    assert find_variant("my_rummy").turn_times == find_variant("tile_rummy").turn_times
    assert find_variant("gin").turn_times is None
    assert option_range(TileRummyOptions, "joker_rule") is None
    assert option_choices(TileRummyOptions, "winner_collects") is None
    assert option_choices(find_variant("gin").options_type, "shutout") == (
        "bonus",
        "double",
        "none",
    )


def test_each_tile_variant_takes_only_its_own_joker_rules() -> None:
    tile, mine = find_variant("tile_rummy"), find_variant("my_rummy")
    for rule in tile.joker_rules:
        assert tile.options({"joker_rule": rule}).joker_rule == rule  # type: ignore[union-attr]
        with pytest.raises(OptionError):
            mine.options({"joker_rule": rule})
    with pytest.raises(OptionError):
        tile.options({"joker_rule": "my_rummy"})
    assert mine.option_choices("joker_rule") == ("my_rummy",)
    assert find_variant("gin").option_choices("joker_rule") is None


# -- pieces and copy limits ----------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
def test_copy_limits_are_the_ones_the_judge_counts(variant: str) -> None:
    v = find_variant(variant)
    players = 3 if v.players[1] >= 3 else None
    pset = v.piece_set(players)
    piece = "R5" if v.material == "tiles" else "5H"
    assert v.meld_rules.material == pset.material
    request: dict[str, Any] = {"check": "meld", "variant": variant}
    if players is not None:
        request["players"] = players
    most = ask({**request, "meld": [piece] * pset.copies})
    assert most.get("error") != "too_many_copies", most
    over = ask({**request, "meld": [piece] * (pset.copies + 1)})
    assert over.get("error") == "too_many_copies", over
    jokers = ask({**request, "meld": ["JK"] * (pset.jokers + 1)})
    assert jokers["ok"] is False
    assert pset.size == {"tiles": 106, "cards": 52 * pset.copies + pset.jokers}[pset.material]


def test_carousel_deals_one_deck_to_two_players_and_two_to_more() -> None:
    v = find_variant("carousel")
    assert (v.piece_set(2).size, v.piece_set(3).size, v.piece_set().size) == (53, 106, 106)
    assert find_variant("gin").piece_set(2).size == 52
    assert [x.name for x in REGISTRY if x.set_by_players] == ["carousel"]
    two = ask({"check": "meld", "variant": "carousel", "meld": ["5H", "5H"], "players": 2})
    three = ask({"check": "meld", "variant": "carousel", "meld": ["5H", "5H"], "players": 3})
    assert two.get("error") == "too_many_copies" and three.get("error") != "too_many_copies"
    assert find_variant("gin").meld_rules.jokers is False


# -- how a game ends ---------------------------------------------------------------------------
def _game(variant: str, scores: list[dict[str, int]], **more: Any) -> dict[str, Any]:
    rounds = [{"scores": s, "winners": [max(s, key=s.__getitem__)]} for s in scores]
    return {"check": "game", "variant": variant, "players": ["A", "B"], "rounds": rounds, **more}


@pytest.mark.parametrize("variant", NAMES)
def test_the_game_end_is_the_judges(variant: str) -> None:
    v = find_variant(variant)
    end = v.end
    if end.target is not None:  # its own target ends it
        assert v.options().target == end.target  # type: ignore[union-attr]
        assert ask(_game(variant, [{"A": end.target - 1, "B": 0}]))["finished"] is False
        assert ask(_game(variant, [{"A": end.target, "B": 0}]))["finished"] is True
    else:  # no end of its own: it goes on whatever the totals
        assert ask(_game(variant, [{"A": 100_000, "B": 0}]))["finished"] is False
    if end.agreed == "options":  # agreed rounds and the players stopping, judged
        assert ask(_game(variant, [{"A": 5, "B": -5}], options={"games": 1}))["finished"] is True
        assert ask(_game(variant, [{"A": 5, "B": -5}], ended=True))["finished"] is True
    if end.agreed == "game":  # the agreed rounds sent as rounds_planned
        assert ask(_game(variant, [{"A": 5, "B": -5}], rounds_planned=1))["finished"] is True
        assert ask(_game(variant, [{"A": 5, "B": -5}], rounds_planned=2))["finished"] is False
    assert end.by_agreement == (end.agreed is not None)
    assert end.agreed_rounds == v.has_option("games") or end.agreed == "game"


# -- penalty draws -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
def test_penalty_draws_are_the_ones_the_judge_scores(variant: str) -> None:
    v = find_variant(variant)
    request = _round(variant, 2)
    tiles = v.penalty_tiles
    if tiles is None:
        assert v.penalty is None
        return
    for n, ok in ((tiles, True), (tiles + 1, False)):
        got = ask({**request, "penalties": [{"name": "P1", "tiles": n, "reason": "timeout"}]})
        assert (got.get("ok") is True and got.get("valid") is True) == ok, got


# -- where the rules stand ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
def test_the_rule_sections_are_the_ones_the_judge_names(variant: str) -> None:
    v = find_variant(variant)
    rule = ask(_round(variant, 2))["rule"]
    assert rule.startswith(v.rule), rule
    assert v.seed.split()[1] in rule
    if v.answers("split"):
        lonely = "R5" if v.material == "tiles" else "5H"
        got = ask({"check": "split", "variant": variant, "tiles": [lonely]})
        assert got["valid"] is False and got["rule"] == v.table_rule


def test_descriptions_are_values() -> None:
    v = find_variant("gin")
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.players = (2, 3)  # type: ignore[misc]
    assert isinstance(v, Variant) and v.is_solo({"mode": "solo"}) and v.seats({"mode": "solo"})
    assert v.seats({"mode": "solo"}) == (1, 1) and v.seats(v.options()) == (2, 2)
    assert not find_variant("carousel").is_solo({"mode": "solo"})
    assert v.solo_opponent == "joker"


# -- the app's adapter -------------------------------------------------------------------------
@pytest.mark.parametrize("variant", NAMES)
def test_the_apps_adapter_answers_from_the_description(variant: str) -> None:
    v, info = find_variant(variant), app_variants.about(variant)
    assert info.rules is v and info.players == v.players and info.presets == tuple(v.presets)
    assert info.default_preset == v.default_preset
    assert info.deals == (v.first_player == "deals") == (v.material == "cards")
    assert info.agreed_end == v.end.agreed and info.endable == v.end.by_agreement
    assert info.penalty_tiles == v.penalty_tiles and info.turn_times == v.turn_times
    assert info.own_target == v.end.target
    assert app_variants.is_variant(variant) and not app_variants.is_variant("poker")
    assert info.preset(v.default_preset) is v.options()
    assert info.find_preset("no such preset") is None


def test_the_adapters_tables() -> None:
    assert app_variants.VARIANT_KEYS == VARIANTS
    assert app_variants.MAX_SEATS == 5
    assert app_variants.TURN_TIMES == (20, 120)
    assert app_variants.TIMED_VARIANTS == ("tile_rummy", "my_rummy")
    assert app_variants.about("my_rummy").penalty_takes_back
    assert not app_variants.about("tile_rummy").penalty_takes_back
    with pytest.raises(OptionError):
        app_variants.about("poker")


def test_every_display_name_is_offered_to_the_translators() -> None:
    from app.ui.common import labels

    assert {v.display_name for v in REGISTRY} == set(labels.DISPLAY_NAMES)
    assert {v.name: v.display_name for v in REGISTRY} == labels.VARIANT_NAMES
    assert set(labels.VARIANT_BLURBS) == {v.name for v in REGISTRY}
    assert labels.variant_name("gin") == "Gin Rummy" and labels.variant_name("poker") == "poker"


def test_gin_hand_sizes_and_typed_deadwood_are_the_judges() -> None:
    from rules.variants import gin

    v = find_variant("gin")
    assert v.typed_deadwood == (0, gin.MAX_TYPED_DEADWOOD)
    assert app_variants.about("gin").hand_sizes == v.hand_sizes == (10, 11)
    for other in REGISTRY:
        if other is not v:
            assert other.hand_sizes == () and other.typed_deadwood is None
    lo, hi = v.typed_deadwood
    for dw, ok in ((lo, True), (hi, True), (hi + 1, False), (lo - 1, False)):
        got = ask(
            {"check": "round", "variant": "gin", "knocker": "B",
             "players": [{"name": "A", "deadwood": dw}, {"name": "B", "deadwood": 0}]}
        )  # fmt: skip
        assert (got.get("error") != "bad_field") == ok, (dw, got)
    for n in (9, *v.hand_sizes, 12):
        got = ask({"check": "hand", "variant": "gin", "hand": CARDS[:n]})
        assert (got["ok"] is True) == (n in v.hand_sizes), (n, got)


def test_gin_solo_cards_turned_are_the_judges() -> None:
    from rules.variants import gin

    v = find_variant("gin")
    assert v.solo_turned == app_variants.about("gin").solo_turned == (1, gin.MAX_TURNED)
    assert all(other.solo_turned is None for other in REGISTRY if other is not v)
    lo, hi = v.solo_turned
    for turned, ok in ((lo, True), (hi, True), (hi + 1, False), (lo - 1, False)):
        got = ask(
            {"check": "round", "variant": "gin", "options": {"mode": "solo"}, "result": "knock",
             "turned": turned, "players": [{"name": "A", "deadwood": 3}]}
        )  # fmt: skip
        assert (got.get("error") != "bad_field") == ok, (turned, got)


# -- what the referee's checkers ask of a description (app/ui/referee/checkers.py) ---------
def _pieces(v: Variant) -> list[str]:
    return ["AS", "2S", "3S"] if v.material == "cards" else ["R1", "R2", "R3"]


@pytest.mark.parametrize("v", [v for v in REGISTRY if v.answers("turn")], ids=lambda v: v.name)
def test_table_turns_and_declared_jokers_are_the_judges(v: Variant) -> None:
    """A turn's table may be given as a heap exactly where the turn is judged on a shared
    table (not Rummy 101: its melds are only added to), and the jokers' cards declared exactly
    where :attr:`Variant.declares_jokers` says (Carousel)."""
    pieces = _pieces(v)
    opened: Any = "melds" if not v.judges_table_turns else True
    base = {
        "check": "turn",
        "variant": v.name,
        "rack": pieces,
        "table_before": [],
        "opened": opened,
    }
    heap = judge.answer({**base, "table_after": {"heap": pieces}})
    assert heap["ok"] is v.judges_table_turns, heap
    if v.judges_table_turns:
        declared = judge.answer({**base, "table_after": [pieces], "declared_before": []})
        assert declared["ok"] is v.declares_jokers, declared


@pytest.mark.parametrize("v", [v for v in REGISTRY if v.answers("opening")], ids=lambda v: v.name)
def test_an_opening_takes_the_discard_where_it_has_a_threshold(v: Variant) -> None:
    """The checker offers "took the discard" where the opening has a threshold (Rummy 101);
    the judge refuses a ``taken_discard`` for the initial meld (Tile Rummy, My Rummy)."""
    got = judge.answer(
        {
            "check": "opening",
            "variant": v.name,
            "melds": [["R10", "R11", "R12"]],
            "taken_discard": "R12",
        }
    )
    assert got["ok"] is v.has_option("threshold"), got
    assert v.has_option("threshold") is v.has_option("threshold_mode") is v.meld_rules.pairs


def _named_comparisons(source: str) -> list[int]:
    """Lines of ``source`` comparing a variant with a variant's name (``variant == "gin"``,
    ``game.variant in ("tile_rummy", "my_rummy")``); a result called ``"gin"`` is no variant."""
    names = set(app_variants.VARIANT_KEYS)

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return False

    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            if any(named(x) for x in sides) and any(
                "variant" in ast.unparse(x) for x in sides if not named(x)
            ):
                out.append(node.lineno)
    return out


def test_the_scan_finds_a_variants_name() -> None:
    source = (
        'if game.variant in ("gin", "carousel"):\n'
        "    pass\n"
        'elif self.variant == "rummy101" or "tile_rummy" != variant:\n'
        "    pass\n"
        'ok = result in ("knock", "gin") or variant == other\n'
    )
    assert _named_comparisons(source) == [1, 3, 3]


def test_the_app_asks_the_variant_never_its_name() -> None:
    """No screen or module of app/ compares a variant with a variant's name: they ask
    app.games.variants (issue 14, point 2)."""
    root = Path(__file__).resolve().parent.parent
    found = {}
    for path in sorted((root / "app").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel == "app/games/variants.py":
            continue
        lines = _named_comparisons(path.read_text(encoding="utf-8"))
        if lines:
            found[rel] = lines
    assert found == {}
