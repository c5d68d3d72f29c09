"""The message catalogue of the rules engine (issue 15): every verdict reason code and every
explanation line as a key → English template with named ``str.format`` placeholders.

The engine renders its English ``message`` / ``why`` / ``breakdown`` lines from these templates
(:func:`rules.verdict.english`); answers carry the key and params (``rules.verdict.Line``), and
the app renders the same key with ``gettext(template).format(localised params)``. The
templates are marked for babel extraction (keywords ``T`` and ``P``; see
``app/locale/babel.cfg``), so the app's ``messages.pot`` holds them as message ids.

Conventions:

- A template that speaks of tiles or cards comes in two keys, ``….tiles`` and ``….cards``:
  one sentence never serves both (a Polish sentence changes with the noun).
- Counted nouns use :class:`Plural` (singular, plural, the name of the count placeholder);
  no "win(s)".
- Placeholders hold numbers, canonical piece text (``R13``, ``10H``), player names, or
  nested lines (keys of this catalogue, rendered first).
- The rule reference is not part of a template: the engine appends ``(RULES.md §2)`` to its
  English message, the app shows its own link.

:data:`REASONS` declares every ``reason`` code a verdict may give and :data:`ERRORS` every
``error`` code of an ``ok: false`` answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Plural:
    """A template with a singular and a plural form, chosen by the ``count`` placeholder."""

    one: str
    other: str
    count: str


def T(template: str) -> str:  # noqa: N802 - the extraction keyword
    """Mark an English template for extraction (returns it unchanged)."""
    return template


def P(one: str, other: str, count: str) -> Plural:  # noqa: N802 - the extraction keyword
    """Mark a singular/plural template pair for extraction."""
    return Plural(one, other, count)


MESSAGES: Final[dict[str, str | Plural]] = {
    # -- reading a meld (RULES.md §1, §2) ------------------------------------------------------
    "meld.empty_meld": T("a meld needs pieces"),
    "meld.no_real_tile.tiles": T("a meld needs at least one real tile"),
    "meld.no_real_tile.cards": T("a meld needs at least one real card"),
    "meld.bad_declaration": P(
        "{declared} joker declared but the meld holds {jokers}",
        "{declared} jokers declared but the meld holds {jokers}",
        "declared",
    ),
    "meld.too_short.tiles": P(
        "a meld needs at least {need} tile; this has {n}",
        "a meld needs at least {need} tiles; this has {n}",
        "need",
    ),
    "meld.too_short.cards": P(
        "a meld needs at least {need} card; this has {n}",
        "a meld needs at least {need} cards; this has {n}",
        "need",
    ),
    "meld.too_short_pair_or_3": T("a meld needs at least 2 (a pair) or 3 tiles; this has {n}"),
    "meld.kind_too_short.run.tiles": T("a run needs at least 3 tiles"),
    "meld.kind_too_short.run.cards": T("a run needs at least 3 cards"),
    "meld.kind_too_short.group.tiles": T("a group needs at least 3 tiles"),
    "meld.kind_too_short.group.cards": T("a group needs at least 3 cards"),
    "meld.pair_exactly_two": T("a pair is exactly two tiles"),
    "meld.not_a_pair": T(
        "a pair is two identical tiles (same number and colour); "
        "same number in another colour is not a pair"
    ),
    "meld.run_mixed_colours.tiles": T("a run is one colour"),
    "meld.run_mixed_colours.cards": T("a run is one suit"),
    "meld.run_too_long.tiles": P(
        "a run has at most {max} tile; this one has {n}",
        "a run has at most {max} tiles; this one has {n}",
        "max",
    ),
    "meld.run_too_long.cards": P(
        "a run has at most {max} card; this one has {n}",
        "a run has at most {max} cards; this one has {n}",
        "max",
    ),
    "meld.run_repeated_number": T("a run cannot hold the same number twice"),
    "meld.run_wraps": T(
        "a run cannot go round the corner from the king to the ace and on (K-A-2 is a wrap)"
    ),
    "meld.run_wraps.tiles": T(
        "a run cannot go round the corner from the king to the ace and on (K-A-2 is a wrap); "
        "1 comes only before 2"
    ),
    "meld.run_wraps_ace": T(
        "an ace is low (A-2-3) or high (Q-K-A) in a run, never both: K-A-2 is a wrap"
    ),
    "meld.ace_after_king.tiles": T("1 comes only before 2: 12-13-1 is not a run"),
    "meld.ace_after_king.cards": T("the ace is low only: A-2-3 is a run, Q-K-A is not"),
    "meld.run_gap.one": P(
        "a run needs consecutive numbers: {missing} missing between {lo} and {hi} "
        "and only {jokers} joker to fill it",
        "a run needs consecutive numbers: {missing} missing between {lo} and {hi} "
        "and only {jokers} jokers to fill it",
        "jokers",
    ),
    "meld.run_gap.many": P(
        "a run needs consecutive numbers: {missing} missing between {lo} and {hi} "
        "and only {jokers} joker to fill them",
        "a run needs consecutive numbers: {missing} missing between {lo} and {hi} "
        "and only {jokers} jokers to fill them",
        "jokers",
    ),
    "meld.no_run.tiles": T("these tiles do not make a run"),
    "meld.no_run.cards": T("these cards do not make a run"),
    "meld.group_mixed_numbers.tiles": T("a group is tiles of one number"),
    "meld.group_mixed_numbers.cards": T("a group is cards of one number"),
    "meld.group_too_big.tiles": P(
        "a group has at most {max} tile; this has {n}",
        "a group has at most {max} tiles; this has {n}",
        "max",
    ),
    "meld.group_too_big.cards": P(
        "a group has at most {max} card; this has {n}",
        "a group has at most {max} cards; this has {n}",
        "max",
    ),
    "meld.group_repeated_colour.tiles": T(
        "a group needs {n} different colours; {family} appears twice"
    ),
    "meld.group_repeated_colour.cards": T(
        "a group needs {n} different suits; {family} appears twice"
    ),
    "meld.not_a_meld.tiles": T(
        "neither a run (consecutive numbers, one colour) "
        "nor a group (one number, different colours)"
    ),
    "meld.not_a_meld.cards": T(
        "neither a run (consecutive ranks, one suit) nor a group (one rank, different suits)"
    ),
    "meld.valid_run": T("valid run worth {value}"),
    "meld.valid_group": T("valid group worth {value}"),
    "meld.valid_pair": T("valid pair worth {value}"),
    "meld.how.as_entered": T("as entered"),
    "meld.how.rearranged": T(
        "rearranged: jokers fill gaps first, then extend upward, then downward"
    ),
    # colours and suits, as a meld message names them
    "family.R": T("red"),
    "family.B": T("blue"),
    "family.K": T("black"),
    "family.Y": T("yellow"),
    "family.S": T("spades"),
    "family.H": T("hearts"),
    "family.D": T("diamonds"),
    "family.C": T("clubs"),
    # -- input errors: pieces (RULES.md §1) ----------------------------------------------------
    "token.bad": T("bad token {token!r}: {why}"),
    "token.bad_at": T("bad token {token!r} (position {position}): {why}"),
    "token.empty": T("empty token"),
    "token.too_long": T("token too long"),
    "token.no_jokers": T("{variant} is played without jokers"),
    "token.card_not_tile": T("looks like a card; tiles are colour R/B/K/Y + 1–13"),
    "token.not_a_tile": T("a tile is a colour R/B/K/Y and a number 1–13, or JK"),
    "token.unknown_colour": T("unknown colour {letter!r} (colours are R, B, K, Y)"),
    "token.number_out_of_range": T("number {number} is out of range (tiles are 1–13)"),
    "token.not_a_card": T("a card is a rank A 2–10 J Q K and a suit S H D C (♠ ♥ ♦ ♣), or JK"),
    "token.unknown_rank": T("unknown rank {rank!r} (ranks are A 2–10 J Q K, T = 10)"),
    "token.in_field": T("{why} (in {field})"),
    "token.text": T("{text}"),
    "copies.not_in_set": T("{piece} is not in {set}"),
    "copies.not_in_set_where": T("{piece} is not in {set} {where}"),
    "copies.too_many": T("{n} × {piece}, but {set} holds only {most}"),
    "copies.too_many_where": T("{n} × {piece} {where}, but {set} holds only {most}"),
    "set.tiles": T("the 106-tile set"),
    "set.gin": T("a 52-card deck"),
    "set.one_deck": T("one 53-card deck"),
    "set.two_decks": T("the set of two 53-card decks"),
    "where.field": T("in {field}"),
    "where.hand": T("in the hand"),
    "where.opening": T("in the opening"),
    "where.initial_meld": T("in the initial meld"),
    "where.across_hands": T("across the hands"),
    "where.across_racks": T("across the racks"),
    "where.rack_and_table_before": T("on the rack and the table before the turn"),
    "where.text": T("{text}"),
    # -- input errors: requests and options ---------------------------------------------------
    "request.not_object": T("a request must be a JSON object"),
    "request.options_not_object": T("options must be an object"),
    "field.missing": T("missing field {name!r}"),
    "field.not_string": T("field {name!r} must be a string"),
    "field.not_choice": T("{name} {value} is not one of: {choices}"),
    "field.not_bool": T("field {name!r} must be true or false"),
    "field.not_list": T("field {name!r} must be a list"),
    "field.too_many_entries": T("field {name!r} has {n} entries; at most {most}"),
    "field.not_melds": T("field {name!r} must be a list of melds"),
    "field.too_many_melds": T("field {name!r} has {n} melds; at most {most}"),
    "field.not_int": T("field {name!r} must be a whole number, not {value}"),
    "field.out_of_range": T("field {name!r} is {value}; allowed {lo}–{hi}"),
    "field.too_long": T("field {name!r} is too long"),
    "field.too_many_pieces": T("field {name!r} has {n} pieces; at most {most}"),
    "field.pieces_not_strings": T("field {name!r} must list pieces as strings"),
    "field.not_pieces": T("field {name!r} must be a list of pieces"),
    "option.unknown_variant": T("unknown variant {variant} (variants: {variants})"),
    "option.joker_level_range": T("joker_rule level {value} is out of range 0–4"),
    "option.not_choice": T("{name} {value} is not one of: {choices}"),
    "option.joker_rule_variant": T("joker_rule {value} does not fit {variant}"),
    "option.not_bool": T("{name} must be true or false, not {value}"),
    "option.not_int": T("{name} must be a whole number, not {value}"),
    "option.out_of_range": T("{name} {value} is out of range {lo}–{hi}"),
    "option.preset_not_name": T("preset must be a name, not {value}"),
    "option.unknown_preset": T("unknown preset {preset} for {variant} (presets: {presets})"),
    "option.unknown": T("unknown option {name} for {variant} (options: {options})"),
    "judge.unknown_check": T("unknown check {check} (checks: {checks})"),
    "judge.check_not_for_variant": T(
        "check {check!r} does not apply to {variant} (it applies to {variants})"
    ),
    "judge.internal": T("internal error ({kind}); please report it"),
    "judge.too_deep": T("request nested too deeply"),
    "judge.line_too_long": T("request line longer than {most} bytes"),
    "judge.not_utf8": T("request line is not UTF-8"),
    "judge.empty_line": T("empty line; expected one JSON object"),
    "judge.not_json": T("not JSON: {detail}"),
    # -- input errors: players and round entries ----------------------------------------------
    "players.no_name": T("every player needs a name"),
    "players.appears_twice": T("player name {player!r} appears twice"),
    "players.twice": T("player name {player!r} is given twice"),
    "round.knocker_not_a_player": T("knocker {knocker!r} is not one of the players"),
    "r101.no_rest.melds": T("{player} opened with melds: give the hand, or hand_value and jokers"),
    "r101.no_rest.pairs": T("{player} opened with pairs: give the hand, or hand_value and jokers"),
    "tiles.no_rack": T("{player}: give the rack (hand), or hand_value and jokers"),
    "tiles.penalty_tiles": T(
        "a penalty draw is {most} tiles (fewer only when the pool runs low); {player} drew {n}"
    ),
    "gin.not_a_card": T("{field}: {piece} is not a card of the gin deck"),
    "gin.bad_hand_size": T("a gin hand has 10 cards (11 before the discard), not {n}"),
    "gin.solo_joker_name": T("in solo mode the name {joker!r} is the joker's"),
    "gin.turned_range": T("turned is {n}; allowed 1–{most}"),
    "gin.hand_or_deadwood": T("{field}: give hand or deadwood, not both"),
    "gin.no_hand": T("{field}: missing field 'hand' (or 'deadwood')"),
    # -- input errors: the shape of a request (fields a program sends; JUDGE.md) ----------
    "req.declare_not_carousel": T("only Carousel players declare their jokers"),
    "req.declare_field_not_carousel": T(
        "field {field!r}: only Carousel players declare their jokers"
    ),
    "req.declare_needs_melds": T(
        "field {field!r} needs table_after as a list of melds, not a heap"
    ),
    "req.declare_not_parallel": T(
        "field {field!r} has {n} entries; it must be parallel to {table} ({melds} melds)"
    ),
    "req.declare_not_list": T("{field} must be a list of cards (or null)"),
    "req.declares_too_many": T("{field} declares {n} jokers but the meld holds {jokers}"),
    "req.one_card": T("{field} must be one card"),
    "req.one_tile": T("field {field!r} must be one tile"),
    "req.table_after_shape": T(
        "field 'table_after' must be a list of melds or {{\"heap\": [pieces]}}"
    ),
    "req.no_knocker.carousel": T(
        "missing field 'knocker' (a player's name, or null when the stock ran out)"
    ),
    "req.no_knocker.gin": T("missing field 'knocker' (null for a void hand)"),
    "req.no_turned": T("missing field 'turned' (cards turned until the joker)"),
    "req.player_not_object": T("{field} must be an object with a name"),
    "req.player_no_name": T("{field}.name must be a non-empty string"),
    "req.player_not_name": T("{field} must be a name"),
    "req.players_not_names": T("players must be a list of names"),
    "req.gin_flags_not_bool": T("{field}: gin and big_gin must be true or false"),
    "req.gin_flags_with_hand": T(
        "{field}: gin/big_gin are for typed-in deadwood; with a hand the referee finds them"
    ),
    "req.not_object": T("{field} must be an object"),
    "req.round_not_object": T("{field} must be an object with scores"),
    "req.round_not_valid": T("{field} is not a valid round; it cannot be scored"),
    "req.scores_not_object": T("{field}.scores must be an object"),
    "req.scores_not_map": T("{field}.scores must be an object name → points"),
    "req.scores_not_player": T("{field}.scores names {player!r}, not a player"),
    "req.scores_not_player.gin": T("{field}.scores: {player!r} is not a player"),
    "req.winners_not_players": T("{field}.winners must list players"),
    "req.winners_not_names": T("{field}.winners must be a list of names"),
    "req.winners_not_player": T("{field}.winners names {player!r}, not a player"),
    "req.finish_not_choice": T("finish {finish!r} is not one of: {choices}"),
    "req.missing_in": T("missing field {field}.{sub}"),
    "req.sub_not_string": T("field {field}.{sub} must be a string"),
    "req.sub_not_bool": T("field {field}.{sub} must be true or false"),
    "req.by_not_choice": T("{field}.by must be 'melds' or 'pairs'"),
    "req.no_opened": T("missing field {field}.opened (none, melds or pairs)"),
    "req.opened_not_choice": T("{field}.opened {value!r} is not one of: none, melds, pairs"),
    "req.hand_or_value": T("{field}: give hand or hand_value, not both"),
    "req.rummy101_only": T("field {field!r} applies to rummy101 only"),
    "req.penalty_not_player": T("penalty names {player!r}, not a player"),
    "req.penalty_reason": T("penalty reason {value!r} is not one of: {choices}"),
    "req.penalty_reason_at": T("{field}.reason {value!r} is not one of: {choices}"),
    # -- openings (RULES.md §3, §4) ------------------------------------------------------------
    "opening.no_melds": T("an opening lays at least one meld"),
    "opening.tile_not_in_hand": T("{tiles} laid but not in the hand"),
    "opening.no_tile_to_discard": T("a player must keep one tile to discard after opening"),
    "opening.invalid_meld": T("meld {n} ({tiles}) is not valid: {why}"),
    "opening.mixed_pairs_and_melds": T(
        "an opening is by melds (runs and groups) or by pairs, never both"
    ),
    "opening.discard_not_used": T("the taken discard {tile} must be used in the opening melds"),
    "opening.too_few_pairs": P(
        "an opening by pairs needs {need} pair; these are {pairs}",
        "an opening by pairs needs {need} pairs; these are {pairs}",
        "need",
    ),
    "opening.below_threshold": T("opening needs {need} in one turn; these melds make {value}"),
    "opening.by_pairs": P(
        "opening by {pairs} pair (needs {need}; no point minimum)",
        "opening by {pairs} pairs (needs {need}; no point minimum)",
        "pairs",
    ),
    "opening.by_melds": T("opening by melds worth {value} (needs {need})"),
    "initial.no_melds": T("the initial meld lays at least one new meld"),
    "initial.tile_not_on_rack": T(
        "the initial meld uses only the player's own tiles; {tiles} is not on the rack"
    ),
    "initial.below_threshold": T(
        "the initial meld needs {need} in new melds of one's own tiles; these make {value}"
    ),
    "initial.valid": T("initial meld worth {value} (needs {need})"),
    # -- Rummy 101 rounds (RULES.md §3) -------------------------------------------------------
    "r101.finish.normal": T("normal finish"),
    "r101.finish.joker": T("finish by discarding a joker"),
    "r101.finish.one_turn": T("finish in one turn"),
    "r101.finish.one_turn_joker": T("finish in one turn, discarding a joker"),
    "r101.finish.stock_out": T("stock ran out (no winner)"),
    "r101.winner_gains": T("{finish}: the winner gains {gain}"),
    "r101.not_opened": T("not opened: penalty {penalty}"),
    "r101.nobody_opened": T("nobody had opened: penalty {penalty}"),
    "r101.left.hand": T("{tiles} = {left}"),
    "r101.left.hand_joker": T("{tiles} = {left}, a joker counting {each}"),
    "r101.left.typed": T("{left}"),
    "r101.left.typed_jokers": P(
        "{value} + {jokers} joker × {each} = {left}",
        "{value} + {jokers} jokers × {each} = {left}",
        "jokers",
    ),
    "r101.opened_melds": T("opened with melds: tiles left {left}"),
    "r101.opened_pairs": T("opened with pairs: 2 × tiles left ({left}) = {penalty}"),
    "r101.loss": T("{why} → {points}"),
    "r101.loss_times": T("{why} × {m} ({finish}) → {points}"),
    "r101.round": T("{finish}: winner {gain}, penalties × {m}"),
    "r101.round_no_winner": T("{finish}: winner none, penalties × {m}"),
    # -- Tile Rummy / My Rummy rounds (RULES.md §4) ------------------------------------------
    "tiles.rack_of": T("rack {tiles}"),
    "tiles.empty_rack": T("empty rack"),
    "tiles.rack": T("rack"),
    "tiles.rack_jokers": P(
        "{rack}: {value} + {jokers} joker × {each} = {total}",
        "{rack}: {value} + {jokers} jokers × {each} = {total}",
        "jokers",
    ),
    "tiles.rack_total": T("{rack} = {total}"),
    "tiles.emptied": T("emptied the rack"),
    "tiles.pool_out_low": T("the pool ran out: lowest rack ({low}) wins"),
    "tiles.pool_out_tied": T(
        "the pool ran out: lowest rack ({low}) wins, tied with {names}: each scores as the "
        "winner (gap filled)"
    ),
    "tiles.collects_racks": T("{head}: collects the losers' racks {parts} = {points}"),
    "tiles.collects_differences": T("{head}: collects the losers' differences {parts} = {points}"),
    "tiles.collects_nothing": T("{head}: the winner collects nothing (winner_collects off) → 0"),
    "tiles.collects_nothing_my_rummy": T(
        "{head}: the winner collects nothing (My Rummy scoring: losers' penalties only) → 0"
    ),
    "tiles.loser": T("{rack} → {points}"),
    "tiles.loser_pool_out": T("{rack}; lowest rack {low} → −({own} − {low}) = {points}"),
    "tiles.round_pool_out": T(
        "the pool ran out: the lowest rack ({low}) wins; the winner collects"
    ),
    "tiles.round_pool_out_nothing": T(
        "the pool ran out: the lowest rack ({low}) wins; the winner collects nothing"
    ),
    "tiles.round_emptied": T("{name} emptied the rack; the winner collects"),
    "tiles.round_emptied_nothing": T("{name} emptied the rack; the winner collects nothing"),
    # -- Carousel rounds (RULES.md §6) ---------------------------------------------------------
    "car.head.stock": T("stock exhausted, nobody knocked: lowest hand ({low}) wins"),
    "car.head.tied_knocker": T(
        "lowest hand ({low}), tied with the knocker {knocker}: the tied player wins"
    ),
    "car.head.undercut": T("lowest hand ({low}), lower than the knocker {knocker}'s {value}"),
    "car.head.low": T("lowest hand ({low})"),
    "car.tie": T("; tied with {names}, each scores as a winner"),
    "car.tie_gap_filled": T("; tied with {names}, each scores as a winner (gap filled)"),
    "car.difference": T("the difference {base}"),
    "car.differences": T("differences {parts} = {base}"),
    "car.bonus.undercut": T("; undercut bonus +{bonus}"),
    "car.bonus.went_out": T("; went out +{bonus}"),
    "car.winner": T("{head}{tie}: {score}{extra} → {points}"),
    "car.other.tied_knocker": T(
        "knocked with {value}, tied for the lowest: the tied player wins → 0"
    ),
    "car.other.undercut": T("knocked with {value} but a lower hand wins (undercut) → 0"),
    "car.other.not_lowest": T("hand {value}, not the lowest: only the winner scores → 0"),
    "car.round.stock": T("stock exhausted: the lowest hand ({low}) wins"),
    "car.round.undercut": P(
        "{knocker} knocked and was undercut; {names} wins",
        "{knocker} knocked and was undercut; {names} win",
        "count",
    ),
    "car.round.knocker_wins": T("{knocker} knocked with the lowest hand and wins"),
    # -- gin rounds and games (RULES.md §5) --------------------------------------------------
    "gin.void": T("Void hand (the stock ran down to its last 2 cards): nobody scores."),
    "gin.nobody_wins": T("The round scores 0 for both: nobody wins it (no box bonus)."),
    "gin.big_gin_melds": T("{knocker} melds all 11 cards: big gin."),
    "gin.big_gin_not_played": T("Big gin is not played under these rules: scored as gin."),
    "gin.discards": T("{knocker} discards {card}."),
    "gin.goes_gin": T("{knocker} goes gin: no lay-offs."),
    "gin.goes_big_gin": T("{knocker} goes big gin: no lay-offs."),
    "gin.gin_score": T(
        "{knocker} scores {bonus} (gin bonus) + {deadwood} ({defender}'s deadwood) = {total}."
    ),
    "gin.big_gin_score": T(
        "{knocker} scores {bonus} (big gin bonus) + {deadwood} ({defender}'s deadwood) = {total}."
    ),
    "gin.knocks": T("{knocker} knocks with deadwood {deadwood}."),
    "gin.lays_down_arrangement": T(
        "{knocker} lays down the arrangement that leaves {defender} the most deadwood."
    ),
    "gin.lays_down_discard": T(
        "{knocker} lays down the discard and arrangement that leaves {defender} the most deadwood."
    ),
    "gin.before_layoffs": T("{defender} has deadwood {deadwood} before lay-offs."),
    "gin.lays_off": T("{defender} lays off {card} onto {meld}."),
    "gin.after_layoffs": T("{defender} has deadwood {deadwood} after lay-offs."),
    "gin.nothing_to_lay_off": T("{defender} has nothing to lay off."),
    "gin.layoffs_off": T("{defender} has deadwood {deadwood} (lay-offs are off)."),
    "gin.typed_defender": T(
        "{defender}'s deadwood {deadwood} was typed in: taken as counted after any lay-offs "
        "made at the table."
    ),
    "gin.typed_knocker": T(
        "{defender} has deadwood {deadwood}; {knocker}'s deadwood was typed in, so the referee "
        "cannot find lay-offs (none counted)."
    ),
    "gin.undercut": T(
        "{defender} undercuts: {knocker_deadwood} − {deadwood} = {diff}, + {bonus} undercut "
        "bonus = {total}."
    ),
    "gin.undercut_tie": T(
        "{defender} undercuts (a tie undercuts: undercut_on_tie): {knocker_deadwood} − "
        "{deadwood} = {diff}, + {bonus} undercut bonus = {total}."
    ),
    "gin.knock_score": T("{knocker} scores {deadwood} − {knocker_deadwood} = {total}."),
    "gin.tie_not_undercut": T("A tie is not an undercut under these rules."),
    "gin.solo_goes_gin": T("{name} goes gin."),
    "gin.solo_knocks": T("{name} knocks with deadwood {deadwood}."),
    "gin.solo_turned": T(
        "Cards turned until the joker, the joker included: {turned}; {name} scores {turned}."
    ),
    "gin.solo_joker_scores": T("The joker scores {name}'s deadwood: {deadwood}."),
    "gin.solo_second_joker": T(
        "The second joker showed before {name} knocked: the joker scores {deadwood}."
    ),
    "gin.game_winner": T("{name} reaches {target} and wins."),
    "gin.game_tie": T("Both players reach {target} with {points}: no winner."),
    "gin.game_bonus": T("{name}: game bonus {bonus}."),
    "gin.box_bonus": P(
        "{name}: {rounds} round won × {bonus} box bonus = {total}.",
        "{name}: {rounds} rounds won × {bonus} box bonus = {total}.",
        "rounds",
    ),
    "gin.shutout_bonus": T("{name}: shutout bonus {bonus}."),
    "gin.shutout_double": T("{name}: shutout, total {total} doubled to {doubled}."),
    "gin.solo_no_bonuses": T("Solo mode: no bonuses."),
    "gin.hand.gin": T("gin: deadwood 0"),
    "gin.hand.can_knock": T("deadwood {deadwood}; a player may knock at {max} or less"),
    "gin.hand.cannot_knock": T(
        "deadwood {deadwood}; a knock needs {max} or less, so this hand cannot knock yet"
    ),
    "gin.round.void": T("void hand: nobody scores"),
    "gin.round.gin": T("gin: {name} scores {points}"),
    "gin.round.big_gin": T("big gin: {name} scores {points}"),
    "gin.round.knock": T("knock: {name} scores {points}"),
    "gin.round.undercut": T("undercut: {name} scores {points}"),
    "gin.round.solo_knock": T("solo knock: {name} {turned}, the joker {deadwood}"),
    "gin.round.solo_gin": T("solo gin: {name} {turned}, the joker {deadwood}"),
    "gin.round.second_joker": T("second joker: the joker scores {deadwood}"),
    "gin.game.running": T("game running"),
    "gin.game.over": T("game over: {name}"),
    "gin.game.over_tie": T("game over: tie"),
    "gin.wrong_hand_size": P(
        "{name} holds {n} card; a gin hand at the end of a round has 10",
        "{name} holds {n} cards; a gin hand at the end of a round has 10",
        "n",
    ),
    "gin.wrong_hand_size_knocker": P(
        "{name} holds {n} card; a gin hand at the end of a round has 10 or 11",
        "{name} holds {n} cards; a gin hand at the end of a round has 10 or 11",
        "n",
    ),
    "gin.card_in_both_hands": T(
        "{card} is in both {other}'s and {name}'s hands; gin uses one 52-card deck"
    ),
    "gin.wrong_player_count": T("gin is played by two players, not {n}"),
    "gin.solo_wrong_player_count": T("solo mode has one player against the joker, not {n}"),
    "gin.knocker_not_a_player": T("the knocker {knocker!r} is not one of the players ({names})"),
    "gin.gin_with_deadwood": T("{name} declares gin with deadwood {deadwood}; gin is deadwood 0"),
    "gin.knock_above_limit": T(
        "{name} knocks with deadwood {deadwood}; a knock needs at most {max} under these rules"
    ),
    "gin.game_wrong_player_count": T(
        "a gin game has two players (solo: the player and the joker), not {n}"
    ),
    "gin.round_after_game_end": T(
        "round {n} comes after the game ended in round {end} (a player reached {target}); "
        "start a new game"
    ),
    # -- split (RULES.md §2) -------------------------------------------------------------------
    "split.no_split_piece.tiles": T(
        "these {n} tiles do not split into valid melds: {piece} fits in no meld"
    ),
    "split.no_split_piece.cards": T(
        "these {n} cards do not split into valid melds: {piece} fits in no meld"
    ),
    "split.no_split.tiles": T("these {n} tiles do not split into valid melds (runs and groups)"),
    "split.no_split_pairs.tiles": T(
        "these {n} tiles do not split into valid melds (runs, groups and pairs)"
    ),
    "split.no_split.cards": T("these {n} cards do not split into valid melds (runs and groups)"),
    "split.valid.tiles": P(
        "the tiles split into {melds} valid meld",
        "the tiles split into {melds} valid melds",
        "melds",
    ),
    "split.valid.cards": P(
        "the cards split into {melds} valid meld",
        "the cards split into {melds} valid melds",
        "melds",
    ),
    "split.empty": T("no pieces: an empty table is valid"),
    # -- rounds that cannot have happened (RULES.md §3-§6) -----------------------------------
    "round.player_count": P(
        "{n} player: this variant is played by {lo}–{hi}",
        "{n} players: this variant is played by {lo}–{hi}",
        "n",
    ),
    "round.two_winners": T("only one player can finish a round; {names} are all marked winner"),
    "round.winner_in_stock_out": T(
        "when the stock runs out nobody wins, but {name} is marked winner"
    ),
    "round.too_many_jokers": T("{name} holds {n} jokers; the set has {most}"),
    "round.racks_value_one": T(
        "{name}'s rack holds {total} points of numbered tiles, but all 104 numbered tiles of "
        "the 106-tile set are worth only {most}"
    ),
    "round.racks_value_all": T(
        "the racks together hold {total} points of numbered tiles, but all 104 numbered tiles "
        "of the 106-tile set are worth only {most}"
    ),
    "r101.no_winner": T("a {finish} needs a winner; only a stock-out round has none"),
    "r101.opened_in_one_turn": T("a finish in one turn means nobody had opened, but {names} had"),
    "r101.winner_has_tiles": T("the winner {name} finished, so no tiles are left in hand"),
    "r101.hand_too_large": T("{name} holds {n} tiles; a hand holds at most {max}"),
    "r101.negative_hand_value": T("{name}'s hand value cannot be negative"),
    "r101.impossible_hand_value": T(
        "{name}'s {value} points cannot fit in a hand of at most {max} tiles"
    ),
    "r101.empty_hand": T(
        "{name} has no tiles left but did not win; a player keeps a tile to discard"
    ),
    "tiles.two_winners": T(
        "only one player can empty the rack first; {names} are all marked winner"
    ),
    "tiles.winner_has_tiles": T("the winner {name} emptied the rack, so no tiles are left"),
    "tiles.negative_hand_value": T("{name}'s rack value cannot be negative"),
    "tiles.empty_rack_not_winner": T(
        "{name}'s rack is empty, so {name} went out too, but {winner} is the winner; only one "
        "player goes out"
    ),
    "tiles.two_empty_racks": T("{names} both have empty racks; only one player goes out"),
    "car.hand": T("hand worth {value}; a player may knock at {max} or less"),
    "car.knock_above_limit": T(
        "{knocker} knocked with {value}; a knock needs a hand of {max} or less"
    ),
    "car.out_in_knocked_round": T(
        "{name} holds no cards, but {knocker} knocked: playing the last card ends the round at "
        "once, so nobody can knock after a player went out (only when the stock ran out can "
        "several players end with no cards)"
    ),
    # -- games (RULES.md §3, §4, §6) ----------------------------------------------------------
    "r101.game.too_many_rounds": T("{n} rounds scored but {planned} were agreed"),
    "r101.game.finished": P(
        "after the {planned} agreed round the highest total wins",
        "after the {planned} agreed rounds the highest total wins",
        "planned",
    ),
    "r101.game.ongoing": T("the players agree on a number of rounds; highest total is ahead"),
    "tiles.game.why.target": T("a total reached the target {target}"),
    "tiles.game.why.games": P(
        "the {games} agreed game was played",
        "the {games} agreed games were played",
        "games",
    ),
    "tiles.game.why.ended": T("the players ended the series"),
    "tiles.game.rounds_after_end": T(
        "the game ended after round {end} ({why}); round {n} cannot count"
    ),
    "tiles.game.finished": T("{why}: the highest total wins"),
    "tiles.game.ongoing": T("the series goes on"),
    "car.game.rounds_after_end": T(
        "the game ended after round {end}, when a total reached {target}; round {n} cannot count"
    ),
    "car.game.finished": T("a total reached {target}: bonuses added, the highest total wins"),
    "car.game.ongoing": T("the game goes on until a total reaches {target}"),
    "car.bonus.reached": T("reached {target}: +{bonus}"),
    "car.bonus.rounds": P(
        "{n} round won × {each} = +{bonus}",
        "{n} rounds won × {each} = +{bonus}",
        "n",
    ),
    "car.bonus.both": T("{first}; {second}"),
    "car.bonus.none": T("no bonus"),
    # -- a turn on a shared table (RULES.md §4, §6) ------------------------------------------
    # a meld of the table named by its request field (``table_before[0]``; the app reads the
    # field as words) and its pieces
    "turn.meld": T("{field} ({tiles})"),
    "turn.unsupported": T("a turn on a shared table is judged for {variants}, not {variant}"),
    "turn.before_invalid": T(
        "{meld} is not a valid meld, so it cannot have been on the table: {why}"
    ),
    "turn.joker_left_table.tiles": T(
        "a joker left the table ({n_before} before, {n_after} after): a freed joker must be "
        "used on the table in the same turn, never taken to the rack"
    ),
    "turn.joker_left_table.cards": T(
        "a joker left the table ({n_before} before, {n_after} after): a freed joker must be "
        "used on the table in the same turn, never taken to the hand"
    ),
    "turn.left_table.tiles": T(
        "{tile} left the table ({n_before} on it before, {n_after} after): no tile goes from "
        "the table to the rack"
    ),
    "turn.left_table.cards": T(
        "{tile} left the table ({n_before} on it before, {n_after} after): no card goes from "
        "the table to the hand"
    ),
    "turn.not_on_rack.tiles": T(
        "{tile} is new on the table ({played} played) but the rack held {held}: only tiles "
        "from the rack may be played"
    ),
    "turn.not_on_rack.cards": T(
        "{tile} is new on the table ({played} played) but the hand held {held}: only cards "
        "from the hand may be played"
    ),
    "turn.nothing_played.tiles": T(
        "no tile was played from the rack: a turn adds at least one tile to the table "
        "(a player who plays nothing draws instead)"
    ),
    "turn.nothing_played.cards": T(
        "no card was played from the hand: a turn adds at least one card to the table "
        "(a player who plays nothing draws instead)"
    ),
    "turn.invalid_meld": T("{meld} is not a valid meld: {why}"),
    "turn.manipulated_before_initial_meld": T(
        "{meld} is no longer on the table as it was: until the initial meld is down a player "
        "may not add to, rearrange or take jokers from table melds, nor in the initial-meld "
        "turn itself (rearranging in the initial-meld turn is off in this game)"
    ),
    "turn.below_initial_meld": T(
        "the initial meld needs {need} points in new melds of the player's own tiles; "
        "these make {value}"
    ),
    "turn.valid.tiles": P(
        "valid turn: {n} tile played, table valid",
        "valid turn: {n} tiles played, table valid",
        "n",
    ),
    "turn.valid.cards": P(
        "valid turn: {n} card played, table valid",
        "valid turn: {n} cards played, table valid",
        "n",
    ),
    "turn.valid_initial": P(
        "valid turn: {n} tile played, initial meld worth {value}",
        "valid turn: {n} tiles played, initial meld worth {value}",
        "n",
    ),
    "turn.heap_no_split.tiles": P(
        "the table after the turn ({n} tile) cannot be split into valid melds of at least "
        "3 tiles each",
        "the table after the turn ({n} tiles) cannot be split into valid melds of at least "
        "3 tiles each",
        "n",
    ),
    "turn.heap_no_split.cards": P(
        "the table after the turn ({n} card) cannot be split into valid melds of at least "
        "3 cards each",
        "the table after the turn ({n} cards) cannot be split into valid melds of at least "
        "3 cards each",
        "n",
    ),
    # -- a Rummy 101 turn (RULES.md §3) -----------------------------------------------------
    "r101.turn.rearranged": T(
        "{meld} is no longer on the table whole: in Rummy 101 table melds are only added to "
        "(lay-offs, a joker replaced), never split, joined or rearranged"
    ),
    "r101.turn.joker_wrong_tile": T(
        "the joker of {before} stands for {tile}: it may be taken back only by putting exactly "
        "that tile in its place, and {after} does not hold it there"
    ),
    "r101.turn.lay_off_onto_pair": T(
        "{before} is a pair: nothing can be laid off onto a pair (only its joker may be "
        "replaced by the matching tile)"
    ),
    "r101.turn.joker_before_opening": T(
        "the joker of {before} was taken back before the player's own opening: a joker may be "
        "retrieved only after opening"
    ),
    "r101.turn.retrieved_joker_in_opening": T(
        "a joker taken back this turn cannot be part of the opening: a joker is retrieved only "
        "after the opening is down"
    ),
    "r101.turn.lay_off_before_opening": T(
        "tiles were laid off onto {before} before the player's own opening: lay-offs come only "
        "after opening (in the opening turn too, once the opening is down)"
    ),
    "r101.turn.pairs_opener_run": T(
        "{after} is a new run or group, but a player who opened with pairs may never lay runs "
        "or groups (laying off onto other melds is allowed)"
    ),
    "r101.turn.pairs_not_allowed": T(
        "{after} is a pair, but a player who opened with melds may lay pairs only once another "
        "player has opened with pairs"
    ),
    "r101.turn.discard_not_used": T(
        "the taken discard {tile} must be used at once, in a meld or a lay-off this turn: it "
        "may not be taken to keep"
    ),
    "r101.turn.valid_pairs": P(
        "valid turn: {n} tile played, opening with {pairs} pairs",
        "valid turn: {n} tiles played, opening with {pairs} pairs",
        "n",
    ),
    "r101.turn.nothing_laid": T("valid turn: nothing laid (a draw and a discard)"),
    # what a joker stood for when it could be more than one piece ("R7, B7 or Y7")
    "pieces.or": T("{first} or {last}"),
    # joker faults: "{rule}: {fault}" (RULES.md §4 levels 1-4, My Rummy; §6 Carousel)
    "joker.fault": T("{rule}: {fault}"),
    "joker.rule.carousel": T("Carousel joker rule"),
    "joker.rule.my_rummy": T("My Rummy joker rule"),
    "joker.rule.my_rummy_match": T("My Rummy joker rule (as joker level 1, match)"),
    "joker.rule.my_rummy_rack": T("My Rummy joker rule (as joker level 2, match from the rack)"),
    "joker.rule.level1": T("joker level 1 (match)"),
    "joker.rule.level2": T("joker level 2 (match from the rack)"),
    "joker.rule.level3": T("joker level 3 (no split with a joker)"),
    "joker.rule.level4": T("joker level 4 (freed joker into a new meld)"),
    "joker.left_unreplaced": T("a joker left its meld without being replaced"),
    "joker.left_place": T(
        "the joker of {before} stood for {joker} and left its place without being replaced "
        "by {joker}"
    ),
    "joker.left_identity": T(
        "the joker of {before} stood for {joker}; it no longer does and {joker} did not take "
        "its place (a joker keeps its identity until replaced by that very card)"
    ),
    "joker.moved_away": T(
        "the joker of {before} stood for {joker} and went to {after}, away from its meld, "
        "without being replaced by {joker}"
    ),
    "joker.replaced_elsewhere": T(
        "the joker of {before} stood for {joker} and left without being replaced: the {tile} "
        "in {after} is not in that meld's place"
    ),
    "joker.rack": T(
        "the {tile} that replaced the joker of {before} came from the table, not the rack"
    ),
    "joker.new_meld": T(
        "the joker freed from {before} went onto {after}, which is not a new meld made of "
        "tiles from the rack"
    ),
    "joker.my_initial": T(
        "the joker of {before} was swapped in the initial-meld turn: a joker may be swapped "
        "only after one's own initial meld"
    ),
    "joker.my_exact": T(
        "the {tile} must go exactly where the joker was: {after} is not {before} with {tile} "
        "in the joker's place"
    ),
    "joker.my_other": T(
        "the joker freed from {before} must be used in another meld, not put back into {after}"
    ),
    "joker.no_split": T(
        "tiles were taken from {before} while it holds a joker: no tile may leave a meld "
        "holding a joker unless that joker is first replaced"
    ),
}
"""Every message key → its English template."""

REASONS: Final[frozenset[str]] = frozenset(
    {
        # melds (RULES.md §1, §2)
        "empty_meld",
        "too_short",
        "not_a_pair",
        "ace_after_king",
        "run_wraps",
        "run_gap",
        "run_repeated_number",
        "run_mixed_colours",
        "run_too_long",
        "group_too_big",
        "group_mixed_numbers",
        "group_repeated_colour",
        "no_real_tile",
        "not_a_meld",
        "bad_declaration",
        # openings (RULES.md §3, §4)
        "no_melds",
        "too_many_copies",
        "tile_not_in_hand",
        "no_tile_to_discard",
        "invalid_meld",
        "mixed_pairs_and_melds",
        "discard_not_used",
        "too_few_pairs",
        "below_threshold",
        # turns and splits (RULES.md §4, §6)
        "tile_taken_from_table",
        "tile_not_on_rack",
        "nothing_played",
        "no_split",
        "manipulated_before_initial_meld",
        "below_initial_meld",
        "joker_rule",
        # a Rummy 101 turn (RULES.md §3)
        "table_rearranged",
        "joker_wrong_tile",
        "lay_off_onto_pair",
        "joker_before_opening",
        "lay_off_before_opening",
        "pairs_opener_run",
        "pairs_not_allowed",
        # rounds (RULES.md §3–§6)
        "player_count",
        "two_winners",
        "winner_in_stock_out",
        "no_winner",
        "opened_in_one_turn",
        "winner_has_tiles",
        "hand_too_large",
        "negative_hand_value",
        "impossible_hand_value",
        "empty_hand",
        "empty_rack_not_winner",
        "knock_above_limit",
        "gin_with_deadwood",
        "knocker_not_a_player",
        "wrong_hand_size",
        "wrong_player_count",
        "out_in_knocked_round",
        # games (RULES.md §3–§6)
        "round_after_game_end",
        "rounds_after_end",
        "too_many_rounds",
    }
)
"""Every ``reason`` code a verdict of the engine may give."""

ERRORS: Final[frozenset[str]] = frozenset(
    {
        "bad_token",
        "too_many_copies",
        "unknown_option",
        "bad_option",
        "missing_field",
        "bad_field",
        "bad_request",
        "bad_json",
        "too_large",
        "unknown_check",
        "unknown_variant",
        "unsupported_check",
        "internal_error",
        "bad_hand_size",
    }
)
"""Every ``error`` code of an ``ok: false`` answer."""


__all__ = [
    "ERRORS",
    "MESSAGES",
    "P",
    "REASONS",
    "T",
    "Plural",
]
