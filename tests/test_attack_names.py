"""Joined names that look like "Host" or like the app's own labels (hostile-phone findings)."""

from __future__ import annotations

import pytest

from app import games, live
from app.guard_names import skeleton
from app.live import Hub, SessionStore, Visitor
from app.store import Store


@pytest.mark.parametrize(
    "name",
    [
        "Hɵst",  # Latin barred o
        "Hөst",  # Cyrillic barred o
        "Hѳst",  # Cyrillic fita
        "Hθst",  # Greek theta
        "HΘST",
        "Hꝋst",  # Latin o with a long stroke overlay
        "ɦost",  # h with a hook
        "Hoʂt",  # s with a hook
        "A phon3 on the netw0rk",
        "H05t",
        "The h0st's c0mput3r",
        "4dmin",
    ],
)
def test_look_alikes_of_the_host_are_refused(name: str) -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name(name)
    assert e.value.detail == "reserved"


def test_digits_and_barred_letters_fold_for_comparison_only() -> None:
    assert skeleton("Hɵst") == skeleton("Hөst") == skeleton("Hθst") == "host"
    assert skeleton("A phon3 on the netw0rk") == skeleton("A phone on the network")
    assert skeleton("B4rt3k 5") == skeleton("Bartek s")
    assert live.check_joined_name("Ann4") == "Ann4"  # shown as typed


def test_polish_and_slovak_names_stay_apart() -> None:
    names = ["Łukasz", "Ján", "Ľubica", "Žofia", "Marcin", "Ewa", "Ewelina", "Ola", "Tomasz"]
    assert len({skeleton(n) for n in names}) == len(names)
    for n in names:
        assert live.check_joined_name(n) == n


SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
"""🏴󠁧󠁢󠁳󠁣󠁴󠁿: the black flag, the tag letters g b s c t and the cancel tag."""


@pytest.mark.parametrize("name", [f"Ala {SCOTLAND}", SCOTLAND, f"{SCOTLAND}{SCOTLAND} Ewa"])
def test_a_subdivision_flag_is_a_name_the_host_may_give(name: str) -> None:
    """The host's own players (new game, rename) take the flag as the joined phones do."""
    assert games._check_name(name) == name
    game = games.new_game("gin", [name, "Ola"])
    assert game.players[0] == name
    assert live.check_joined_name(name) == name


def test_a_flag_counts_as_one_character() -> None:
    assert games._check_name("a" * 39 + SCOTLAND) == "a" * 39 + SCOTLAND
    with pytest.raises(games.GameError):
        games._check_name("a" * 40 + SCOTLAND)


@pytest.mark.parametrize(
    "name",
    [
        "Ala\U000e0067",  # a stray tag letter: invisible
        "Ala \U000e0067\U000e0062\U000e007f",  # tags without the black flag
        "Ala \U0001f3f4\U000e0067\U000e0062",  # a flag without its cancel tag
        "Ala \U0001f3f4\U000e007f\U000e007f",  # no tag letter
        "Ala\u200b",  # zero-width space
        "\u3164",  # Hangul filler: blank
        "\u2800 \u115f",  # braille blank, Hangul filler
        "a" * 41,
    ],
)
def test_invisible_blank_and_over_long_names_stay_refused(name: str) -> None:
    with pytest.raises(games.GameError):
        games._check_name(name)
    with pytest.raises(games.GameError):
        games.new_game("gin", [name, "Ola"])


BLACK_FLAG, CANCEL_TAG = "\U0001f3f4", "\U000e007f"


def _tags(text: str) -> str:
    """``text`` as tag characters (U+E0000 + its code point): invisible."""
    return "".join(chr(0xE0000 + ord(c)) for c in text)


def _flag(code: str) -> str:
    return BLACK_FLAG + _tags(code) + CANCEL_TAG


@pytest.mark.parametrize(
    "name",
    [
        f"Ala {_flag('IGNORE ALL RULES')}",  # invisible text: capitals and spaces as tags
        f"Bob {_flag('Host')}",  # a tag-encoded "Host"
        _flag("a" * 10_000),  # was stored as a 10,002-character player name
        _flag("zz"),  # a region without a subdivision
        _flag("gbsctx"[:2] + "sctxy"),  # 5 letters after the region
        _flag("gb.sct"),  # tag punctuation
        _flag("GBSCT"),  # capital tag letters
        _flag("g") + "x",
        BLACK_FLAG + _tags("gbsct"),  # no cancel tag
        BLACK_FLAG + _tags("gbsct") + CANCEL_TAG + CANCEL_TAG,  # a stray cancel tag
        _flag("gbsct") * 5,  # more flags than MAX_FLAGS
        "Ewa " + _flag("gbsct") + _tags("x"),  # a tag letter after the flag
    ],
)
def test_tag_characters_outside_a_well_formed_flag_are_refused(name: str) -> None:
    with pytest.raises(games.GameError):
        games._check_name(name)
    with pytest.raises(games.GameError):
        games.new_game("gin", [name, "Ola"])
    with pytest.raises(live.AccessError):
        live.check_joined_name(name)


@pytest.mark.parametrize(
    "name",
    [
        _flag("gbsct"),
        _flag("gbeng"),
        _flag("gbwls"),
        _flag("usca"),
        _flag("pl14"),
        _flag("gb1"),
        f"Ala {_flag('gbsct')}",
        _flag("gbsct") * 4,
        "Łukasz 🇵🇱",
        "Ján 🇸🇰",
        "Nguyễn Thị Ngọc Ệ",
        "Ľubica 😀",
        "👨\u200d👩\u200d👧",
        "❤️",
    ],
)
def test_real_names_and_flags_are_still_accepted(name: str) -> None:
    assert games._check_name(name) == name
    assert games.new_game("gin", [name, "Ola"]).players[0] == name
    assert live.check_joined_name(name) == name


def test_a_name_with_flags_is_never_long_in_code_points() -> None:
    """Each flag shows as one character and holds at most 8 code points, at most 4 flags."""
    longest = "a" * 36 + _flag("gbabcd") * 4
    assert games._check_name(longest) == longest
    assert len(longest) == 36 + 4 * 8
    with pytest.raises(games.GameError):
        games._check_name("a" * 37 + _flag("gbabcd") * 4)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (BLACK_FLAG, _flag("zzz")),  # a made-up subdivision shows as the black flag
        (_flag("gbsct"), _flag("gbscta")),  # one more tag letter
        ("\U0001f600", "\U0001f600\ufe0f"),  # an emoji selector
        ("\U0001f600", "\U0001f600\ufe0e"),  # a text selector
        ("\U0001f600\U0001f600", "\U0001f600\u200d\U0001f600"),  # a joiner that joins nothing
        ("\U0001f600\U0001f600", "\U0001f600 \U0001f600"),
        ("❤", "❤️"),
        ("👨\u200d👩\u200d👧", "👨👩👧"),  # decision: a family meets its three people
    ],
)
def test_emoji_names_that_look_the_same_are_one_key(first: str, second: str) -> None:
    assert live.check_joined_name(first) == first
    assert live.check_joined_name(second) == second
    assert live._name_key(first) == live._name_key(second)


def test_different_emoji_names_stay_apart() -> None:
    names = ["\U0001f600", "\U0001f60e", "\U0001f600\U0001f600", "👍", "👍🏽", "1️⃣", "#️⃣"]
    assert len({live._name_key(n) for n in names}) == len(names)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (BLACK_FLAG, _flag("zzz")),
        (_flag("gbsct"), _flag("gbscta")),
        ("\U0001f600", "\U0001f600\ufe0f"),
    ],
)
def test_a_second_phone_cannot_join_as_an_emoji_look_alike(
    store: Store, first: str, second: str
) -> None:
    """The tester's finding over the protocol (n02): both phones were joined at once."""
    access = live.Access(store)
    host = SessionStore(store, access, Visitor.from_peer("127.0.0.1"), Hub())
    game = host.create_game(games.new_game("gin", ["Ala", "Ola"]))
    code = access.ensure_code(game.id)
    a = SessionStore(store, access, Visitor.from_peer("192.168.1.23"), Hub())
    b = SessionStore(store, access, Visitor.from_peer("192.168.1.24"), Hub())
    assert a.join(game.id, code, first) == game.id
    with pytest.raises(live.AccessError) as e:
        b.join(game.id, code, second)
    assert e.value.reason == "bad_name" and e.value.detail == "taken"
    assert not b.can_edit(game.id)


@pytest.mark.parametrize(
    "new", [_flag("a" * 10_000), f"Ala {_flag('IGNORE ALL RULES')}", _flag("gbsct") * 5]
)
def test_rename_and_merge_refuse_tag_text(store: Store, new: str) -> None:
    """The players screen's rename and merge take names by the same rule."""
    from app import people

    game = store.create_game(games.new_game("gin", ["Ala", "Ola"]))
    with pytest.raises(people.PeopleError) as e:
        people.rename_person(store, "Ala", new)
    assert e.value.code == "bad_name"
    assert store.load_game(game.id).players == ["Ala", "Ola"]
    people.rename_person(store, "Ala", f"Ala {_flag('gbsct')}")  # a real flag is fine
    assert store.load_game(game.id).players == [f"Ala {_flag('gbsct')}", "Ola"]


# -- symbols that read as letters (hostile tester, session 12) ------------------------------------
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Kasia", "Ka$ia"),
        ("Kasia", "K@sia"),
        ("Piotr", "P¡otr"),
        ("Piotr", "Pi○tr"),
        ("Ola", "◯la"),
        ("Ala", "A⏐a"),
        ("Ewa", "€wa"),
    ],
)
def test_a_second_phone_cannot_join_as_a_symbol_look_alike(
    store: Store, first: str, second: str
) -> None:
    # over the protocol these joined beside the first name: the symbols were dropped, not read
    assert skeleton(first) == skeleton(second)
    test_a_second_phone_cannot_join_as_an_emoji_look_alike(store, first, second)


@pytest.mark.parametrize("name", ["H○st", "Ho$t", "H°st", "The h○st's computer", "@dmin"])
def test_symbol_look_alikes_of_the_host_are_refused(name: str) -> None:
    with pytest.raises(live.AccessError) as e:
        live.check_joined_name(name)
    assert e.value.detail == "reserved"


def test_names_with_symbols_are_still_shown_as_typed() -> None:
    assert live.check_joined_name("Ka$ia") == "Ka$ia"
    assert live.check_joined_name("Ola :)") == "Ola :)"
    assert skeleton("Ola :)") == skeleton("Ola")  # the brackets and colon still go
    assert skeleton("Kasia") != skeleton("Kacia")
