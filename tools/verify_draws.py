#!/usr/bin/env python3
"""Independent verifier for gaugebot's auditable dice (gaugebot-dice-v1, -v2 and -v3).

This script uses the Python 3 standard library only and its own pure-Python
ChaCha20 block function, so it shares no code with the bot. It implements the
specification in docs/DICE.md from the text alone.

Usage:
    python3 tools/verify_draws.py export.json   # verify an AuditExport file
    python3 tools/verify_draws.py --selftest    # RFC 8439 vector + fixed test vectors

Exit status of a verification (see EXIT_STATUS below and docs/DICE.md):
    0  the commitment matches the seed and every draw was recomputed and matches;
    1  the commitment does not match the seed, or at least one draw does not match;
    2  the file cannot be read or parsed, or is invalid (not an export, unknown
       version, seed not revealed, a malformed draw record), or bad arguments.
"""

import argparse
import hashlib
import json
import re
import struct
import sys

VERSION_V1 = "gaugebot-dice-v1"
VERSION_V2 = "gaugebot-dice-v2"
# v3: every draw keyed by its position and the game's client seed; valid only inside a game
# record of format gaugebot-record-v3 (docs/DICE.md sections 3.3 and 8.6).
VERSION_V3 = "gaugebot-dice-v3"
VERSIONS = (VERSION_V1, VERSION_V2, VERSION_V3)
SEALED_TAG = "gaugebot-sealed-v1"
VERSION = VERSION_V1  # the original name of the v1 version string

# Irish Gauge
PURPOSE_PLAYER_ORDER = "player-order"
PURPOSE_CITY_CUBES = "city-cubes"
PURPOSE_DIVIDEND_DRAW = "dividend-draw"
COLOURS = ("white", "pink", "black")
CITIES = ("Galway", "Limerick", "Cork", "Derry", "Kilkenny", "Waterford", "Belfast", "Dublin")

# Privates (the 1830-style auction card game)
PURPOSE_PRIVATES_DEALER = "privates-dealer"
PURPOSE_PRIVATES_DECK = "privates-deck"
PURPOSE_PRIVATES_CHIPS = "privates-chips"
PRIVATES_COSTS = (5, 10, 15, 20, 25, 30, 35, 40, 50)
PRIVATES_COPIES = (6, 5)
CHIP_COLOURS = ("red", "yellow", "green", "blue", "black")
CHIPS_PER_ROUND = 7

# The table core: signups before a game (any game)
PURPOSE_SIGNUP_PICK = "signup-pick"
MAX_SIGNUPS = 1000

HEX64 = re.compile(r"\A[0-9a-fA-F]{64}\Z")
DECIMAL = re.compile(r"\A[0-9]+\Z")
MASK32 = 0xFFFFFFFF

EXIT_VERIFIED = 0
EXIT_MISMATCH = 1
EXIT_INVALID = 2
EXIT_STATUS = """exit status:
  0  the commitment matches the revealed seed and every draw matches (a game
     record: also complete, its hash chain whole and every --witness matching;
     a record of a game with manual dice: no seed or commitment, its chain whole
     and its moderator's draws listed)
  1  the commitment does not match the seed, or at least one draw does not match,
     or a game record is incomplete, its chain broken or a witness differs
  2  the file cannot be read or parsed, or is invalid: not an export, an unknown
     version, a seed not yet revealed, a malformed draw record (unknown purpose,
     missing or out-of-range inputs, a v2 record without a decimal message_id);
     also bad command-line arguments
--selftest exits 0 when every vector matches, 1 otherwise."""


# --------------------------------------------------------------------------- ChaCha20


def _rotl32(v, c):
    return ((v << c) & MASK32) | (v >> (32 - c))


def _quarter_round(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl32(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl32(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl32(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl32(s[b] ^ s[c], 7)


def chacha20_block(key, counter, nonce):
    """RFC 8439 section 2.3: one 64-byte ChaCha20 block (20 rounds)."""
    if len(key) != 32 or len(nonce) != 12 or not 0 <= counter <= MASK32:
        raise ValueError("bad ChaCha20 block parameters")
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key))
    state.append(counter)
    state += list(struct.unpack("<3I", nonce))
    working = list(state)
    for _ in range(10):
        _quarter_round(working, 0, 4, 8, 12)
        _quarter_round(working, 1, 5, 9, 13)
        _quarter_round(working, 2, 6, 10, 14)
        _quarter_round(working, 3, 7, 11, 15)
        _quarter_round(working, 0, 5, 10, 15)
        _quarter_round(working, 1, 6, 11, 12)
        _quarter_round(working, 2, 7, 8, 13)
        _quarter_round(working, 3, 4, 9, 14)
    out = [(working[i] + state[i]) & MASK32 for i in range(16)]
    return struct.pack("<16I", *out)


class DrawStream:
    """The keystream of ChaCha20 (key = draw key, nonce = 12 zero bytes, counter from 0),
    read as little-endian 32-bit words, with the spec's uniform and pick operations."""

    def __init__(self, key):
        self.key = key
        self.counter = 0
        self.words = []
        self.used = 0

    def next_u32(self):
        self.used += 1
        if not self.words:
            block = chacha20_block(self.key, self.counter, bytes(12))
            self.counter += 1
            self.words = list(struct.unpack("<16I", block))
        return self.words.pop(0)

    def uniform(self, n):
        """Uniform integer in [0, n) by rejection sampling."""
        if n < 1 or n > 1 << 32:
            raise ValueError("uniform bound out of range")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def pick_without_replacement(self, items, k):
        remaining = list(items)
        picked = []
        for _ in range(min(k, len(remaining))):
            j = self.uniform(len(remaining))
            picked.append(remaining.pop(j))
        return picked


# --------------------------------------------------------------------------- the draws


def _length_prefixed(text):
    data = text.encode("utf-8")
    return struct.pack(">I", len(data)) + data


def _message_id_bytes(message_id):
    if not isinstance(message_id, str) or not DECIMAL.match(message_id):
        raise ValueError("a v2 message id is the message's id as decimal digits")
    return _length_prefixed(message_id)


def draw_key(seed, game_id, index, purpose, version=VERSION_V1, message_id=None):
    """SHA-256 of the domain tag, seed, game id, history index and purpose; in v2 also the
    id of the message that triggered the draw (decimal text). v1 ignores message_id."""
    if version not in VERSIONS:
        raise ValueError("unknown dice version %r" % (version,))
    message = (
        version.encode("ascii")
        + b"\x00"
        + seed
        + _length_prefixed(game_id)
        + struct.pack(">Q", index)
        + _length_prefixed(purpose)
    )
    if version == VERSION_V2:
        message += _message_id_bytes(message_id)
    if version == VERSION_V3:
        # Under v3 the last field is the game's client seed (any UTF-8 text).
        if not isinstance(message_id, str):
            raise ValueError("a v3 key needs the game's client seed")
        message += _length_prefixed(message_id)
    return hashlib.sha256(message).digest()


def sealed_hash(key, result):
    """The sealed hash of a hidden draw (docs/DICE.md section 7.2): hex SHA-256 of
    "gaugebot-sealed-v1" || 0x00 || the draw key || canonical(result)."""
    return hashlib.sha256(SEALED_TAG.encode("ascii") + b"\x00" + key + canonical(result)) \
        .hexdigest()


# The self-test sets this to a list to collect every stream it reads (for the OpenSSL check).
_STREAM_LOG = None


def draw_stream(seed, game_id, index, purpose, version=VERSION_V1, message_id=None):
    stream = DrawStream(draw_key(seed, game_id, index, purpose, version, message_id))
    if _STREAM_LOG is not None:
        _STREAM_LOG.append(stream)
    return stream


# Each draw below takes the key inputs (seed, game id, and for v2 the message id) and the
# record's own inputs; version and message_id default to v1.


def player_order(seed, game_id, players, version=VERSION_V1, message_id=None):
    stream = draw_stream(seed, game_id, 0, PURPOSE_PLAYER_ORDER, version, message_id)
    return stream.pick_without_replacement(range(1, players + 1), players)


def city_cubes(seed, game_id, version=VERSION_V1, message_id=None):
    stream = draw_stream(seed, game_id, 0, PURPOSE_CITY_CUBES, version, message_id)
    return stream.pick_without_replacement(range(1, 13), 8)


def dividend_draw(seed, game_id, index, supply, version=VERSION_V1, message_id=None):
    """supply: dict with integer keys white, pink, black."""
    bag = []
    for colour in COLOURS:
        bag += [colour] * supply[colour]
    stream = draw_stream(seed, game_id, index, PURPOSE_DIVIDEND_DRAW, version, message_id)
    return stream.pick_without_replacement(bag, min(3, len(bag)))


def privates_dealer(seed, game_id, players, version=VERSION_V1, message_id=None):
    """The first dealer: one of the sign-up numbers 1..players."""
    stream = draw_stream(seed, game_id, 0, PURPOSE_PRIVATES_DEALER, version, message_id)
    return stream.pick_without_replacement(range(1, players + 1), 1)


def privates_deck(seed, game_id, copies, version=VERSION_V1, message_id=None):
    """The shuffled deck: every card's cost, in drawn order."""
    deck = [cost for cost in PRIVATES_COSTS for _ in range(copies)]
    stream = draw_stream(seed, game_id, 0, PURPOSE_PRIVATES_DECK, version, message_id)
    return stream.pick_without_replacement(deck, len(deck))


def privates_chips(seed, game_id, round_number, bag, version=VERSION_V1, message_id=None):
    """A round's chips, drawn from the bag (dict of counts by colour) in drawn order."""
    chips = []
    for colour in CHIP_COLOURS:
        chips += [colour] * bag[colour]
    stream = draw_stream(seed, game_id, round_number, PURPOSE_PRIVATES_CHIPS, version, message_id)
    return stream.pick_without_replacement(chips, min(CHIPS_PER_ROUND, len(chips)))


def signup_pick(seed, game_id, signups, picks, version=VERSION_V1, message_id=None):
    """The players drawn among the signups: sign-up numbers 1..signups, picks of them, in
    drawn order."""
    stream = draw_stream(seed, game_id, 0, PURPOSE_SIGNUP_PICK, version, message_id)
    return stream.pick_without_replacement(range(1, signups + 1), picks)


# --------------------------------------------------------------------------- hash chain

FORMAT_V1 = "gaugebot-record-v1"
FORMAT_V2 = "gaugebot-record-v2"
FORMAT_V3 = "gaugebot-record-v3"
CHAIN = "gaugebot-chain-v1"
CHAIN_V2 = "gaugebot-chain-v2"
SHORT_HEAD = 12
HEXDIGITS = re.compile(r"\A[0-9a-fA-F]+\Z")


def canonical(value):
    """The canonical bytes of a JSON value (docs/DICE.md section 8.2): keys sorted, no
    whitespace, strings escaped only where JSON requires it, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8")


def chain_body(link, algorithm=CHAIN):
    """A link without the fields its hash leaves out (prev, undone; under gaugebot-chain-v2
    also the result of a hidden draw record)."""
    if not isinstance(link, dict):
        return link
    hidden = algorithm == CHAIN_V2 and link.get("hidden") is True
    return {k: v for k, v in link.items()
            if k not in ("prev", "undone") and not (hidden and k == "result")}


def link_hash(prev, link, algorithm=CHAIN):
    """SHA-256(algorithm || 0x00 || prev (32 bytes) || canonical(body))."""
    return hashlib.sha256(algorithm.encode("ascii") + b"\x00" + prev
                          + canonical(chain_body(link, algorithm))).digest()


def redacted_setup(setup, draws):
    """The setup with the fields that hidden setup draws fill set to null (section 7.2)."""
    if not isinstance(setup, dict):
        return setup
    setup = json.loads(json.dumps(setup))
    game_setup = setup.get("setup")
    for draw in draws if isinstance(draws, list) else []:
        if isinstance(draw, dict) and draw.get("hidden") is True and draw.get("seq") is None \
                and isinstance(draw.get("fills"), str) and isinstance(game_setup, dict) \
                and draw["fills"] in game_setup:
            game_setup[draw["fills"]] = None
    return setup


def chain_header(export):
    if export.get("format") == FORMAT_V3:
        return {
            "chain": CHAIN_V2,
            "format": FORMAT_V3,
            "version": export.get("version"),
            "game_id": export.get("game_id"),
            "kind": export.get("kind"),
            "commitment": export.get("commitment"),
            "client_seed": export.get("client_seed"),
            "setup": redacted_setup(export.get("setup"), export.get("draws")),
        }
    return {
        "chain": CHAIN,
        "version": export.get("version"),
        "game_id": export.get("game_id"),
        "kind": export.get("kind"),
        "commitment": export.get("commitment"),
        "setup": export.get("setup"),
    }


def parse_witness(text):
    """SEQ:HEAD (SEQ an entry number or `setup`); argparse type."""
    seq, sep, head = text.partition(":")
    seq = seq.strip().lstrip("#")
    head = head.strip().lower()
    if not sep or not HEXDIGITS.match(head or "x") or not SHORT_HEAD <= len(head) <= 64:
        raise argparse.ArgumentTypeError("a witness is SEQ:HEAD with 12 to 64 hex digits, not %r"
                                         % text)
    if seq == "setup":
        return (None, head)
    if not DECIMAL.match(seq):
        raise argparse.ArgumentTypeError("a witness's SEQ is an entry number, not %r" % seq)
    return (int(seq), head)


def _seq_name(seq):
    return "the setup" if seq is None else "#%d" % seq


def _draw_name(position, record):
    seq = record.get("seq") if isinstance(record, dict) else None
    purpose = record.get("purpose") if isinstance(record, dict) else None
    if seq is None:
        return "setup draw record %d (%s)" % (position, purpose)
    return "the draw record for #%s (%s)" % (seq, purpose)


def check_chain(export, witnesses=()):
    """The hash chain of a gaugebot-record-v2 (docs/DICE.md section 8.2): return the problems
    found, the first bad record named (empty when the chain, its order, counts, head and every
    witness agree)."""
    summary = export.get("chain")
    if not isinstance(summary, dict):
        return ["the record has no chain summary"]
    algorithm = CHAIN_V2 if export.get("format") == FORMAT_V3 else CHAIN
    if summary.get("algorithm") != algorithm:
        return ["the chain algorithm is %r, but a record of format %s has %s"
                % (summary.get("algorithm"), export.get("format"), algorithm)]
    log = export.get("log") if isinstance(export.get("log"), list) else []
    draws = export.get("draws") if isinstance(export.get("draws"), list) else []
    head = link_hash(b"\x00" * 32, chain_header(export), algorithm)
    heads = []

    def link(item, name):
        nonlocal head
        prev = item.get("prev") if isinstance(item, dict) else None
        if prev != head.hex():
            return ["the chain breaks at %s: its prev is not the hash of the record before it "
                    "(a record before it was dropped, moved, added or changed, or this one was "
                    "moved)" % name]
        head = link_hash(head, item, algorithm)
        return []

    cursor = 0
    while cursor < len(draws) and isinstance(draws[cursor], dict) \
            and draws[cursor].get("seq") is None:
        problems = link(draws[cursor], _draw_name(cursor, draws[cursor]))
        if problems:
            return problems
        cursor += 1
    heads.append((None, head.hex()))
    for item in log:
        if not isinstance(item, dict):
            return ["a log entry is not an object"]
        problems = link(item, "entry #%s" % (item.get("seq"),))
        if problems:
            return problems
        entry = item.get("entry") if isinstance(item.get("entry"), dict) else {}
        if cursor < len(draws) and isinstance(draws[cursor], dict) \
                and draws[cursor].get("seq") == item.get("seq"):
            problems = link(draws[cursor], _draw_name(cursor, draws[cursor]))
            if problems:
                return problems
            cursor += 1
        elif export.get("commitment") is not None and entry.get("entry") == "draw" \
                and entry.get("manual") is False:
            return ["the draw record for #%s is missing or out of order (draw records come in the "
                    "order of the log, each right after its entry)%s" % (
                        item.get("seq"),
                        "; %s is in its place" % _draw_name(cursor, draws[cursor])
                        if cursor < len(draws) else "")]
        heads.append((item.get("seq"), head.hex()))
    if cursor < len(draws):
        return ["%s is out of order: draw records come in the order of the log, each right "
                "after its entry" % _draw_name(cursor, draws[cursor])]
    last = log[-1].get("seq") if log else None
    if summary.get("entries") != len(log) or summary.get("draws") != len(draws):
        return ["the chain summary counts %s entries and %s draw records, the record holds %d "
                "and %d" % (summary.get("entries"), summary.get("draws"), len(log), len(draws))]
    if summary.get("seq") != last:
        return ["the chain summary's head covers %s, the record ends at %s"
                % (_seq_name(summary.get("seq")), _seq_name(last))]
    if not isinstance(summary.get("head"), str) or summary["head"].lower() != head.hex():
        return ["the record up to its last record (%s) does not hash to the chain's head: the "
                "last record was changed, or records after it were cut" % _seq_name(last)]
    for seq, short in witnesses:
        found = [h for s, h in heads if s == seq]
        name = "setup:%s" % short if seq is None else "#%d:%s" % (seq, short)
        if not found:
            return ["witness %s: the record ends at %s, before the witnessed entry: its tail "
                    "was cut" % (name, _seq_name(last))]
        if not found[0].startswith(short):
            return ["witness %s: the record's head after %s is %s: the record up to there is "
                    "not the one players saw" % (name, _seq_name(seq), found[0][:SHORT_HEAD])]
    return []


def check_keys(export):
    """The key of every draw record of a gaugebot-dice-v2 record of format v2 (docs/DICE.md
    section 8.3): return the problems, the first bad record named."""
    if export.get("version") != VERSION_V2 or export.get("format") != FORMAT_V2:
        return []
    setup = export.get("setup") if isinstance(export.get("setup"), dict) else {}
    setup_message = setup.get("setup_message")
    log = export.get("log") if isinstance(export.get("log"), list) else []
    draws = export.get("draws") if isinstance(export.get("draws"), list) else []

    def entry(seq):
        if _is_int(seq) and 0 <= seq < len(log) and isinstance(log[seq], dict):
            return log[seq].get("entry") if isinstance(log[seq].get("entry"), dict) else {}
        return None

    for position, draw in enumerate(draws):
        if not isinstance(draw, dict):
            return ["draw record %d is not an object" % position]
        key = draw.get("message_id")
        name = _draw_name(position, draw)
        seq = draw.get("seq")
        if seq is None:
            if key != setup_message:
                return ["%s is keyed by message %s, not by the setup message %s"
                        % (name, key, setup_message)]
            continue
        if entry(seq) is None:
            return ["%s has no entry" % name]
        before = entry(seq - 1) if seq > 0 else None
        trigger = seq - 1 if before is not None and before.get("entry") == "action" else None
        bot_made = None
        if trigger is not None and trigger > 0:
            marker = entry(trigger - 1)
            if marker.get("entry") == "table" and marker.get("event") == "proxy":
                bot_made = {"why": marker.get("why"), "marker": trigger - 1}
        if draw.get("trigger") != trigger:
            return ["%s names %s as the move that triggered it; the log says %s"
                    % (name, draw.get("trigger"), trigger)]
        if draw.get("bot_made") != bot_made:
            return ["%s is marked %s but the log says %s"
                    % (name, draw.get("bot_made") or "made by a player",
                       bot_made or "a player made its move")]
        by_itself = bot_made is not None and bot_made["why"] != "moderator"
        made_by = log[seq].get("message_id")
        own = setup_message if by_itself or not (isinstance(made_by, str)
                                                 and DECIMAL.match(made_by)) else made_by
        if key == own:
            continue
        redone = any(
            isinstance(e, dict) and e.get("undone") is True and e.get("purpose") ==
            draw.get("purpose") and e.get("index") == draw.get("index")
            and e.get("message_id") == key
            for e in draws[:position])
        if not redone:
            return ["%s is keyed by message %s, but %s (and no undone draw of the same purpose "
                    "and index had that key)" % (
                        name, key,
                        "its move was made by the table itself, so the setup message %s keys "
                        "it" % setup_message if by_itself
                        else "the message that made its move is %s" % own)]
    return []


def check_v3(export):
    """The rules of a gaugebot-record-v3 that need no seed and no witness (docs/DICE.md
    section 8.6): return the problems, the first one found."""
    setup = export.get("setup") if isinstance(export.get("setup"), dict) else {}
    log = export.get("log") if isinstance(export.get("log"), list) else []
    draws = export.get("draws") if isinstance(export.get("draws"), list) else []
    revealed_seed = export.get("seed") is not None
    if export.get("commitment") is not None:
        if setup.get("dice") != "audited":
            return ["the record has a commitment but its setup says dice %s: a game with a "
                    "commitment has audited dice" % (setup.get("dice"),)]
        # The commitment post's id when the setup names one, else the setup message's.
        own_seed = setup.get("client_seed", setup.get("setup_message"))
        if not isinstance(export.get("client_seed"), str) \
                or export.get("client_seed") != own_seed:
            return ["the record's client_seed is not its setup's "
                    "(setup.client_seed, else setup.setup_message)"]
    elif setup.get("dice") != "manual" or revealed_seed or draws:
        return ["a record without a commitment has manual dice, no seed and no draw records"]
    for position, draw in enumerate(draws):
        if not isinstance(draw, dict):
            return ["draw record %d is not an object" % position]
        name = _draw_name(position, draw)
        if "message_id" in draw:
            return ["%s carries a message_id: a v3 draw is keyed by its position and the game's "
                    "client seed only" % name]
        if draw.get("hidden") is True:
            sealed = draw.get("sealed")
            if not isinstance(sealed, str) or not HEX64.match(sealed):
                return ["%s is hidden but has no sealed hash" % name]
            if not revealed_seed and draw.get("result") is not None:
                return ["%s is hidden, yet its result is shown before the reveal" % name]
            field = draw.get("fills")
            if isinstance(field, str):
                game_setup = setup.get("setup") if isinstance(setup.get("setup"), dict) else {}
                want = draw.get("result") if revealed_seed else None
                if game_setup.get(field) != want:
                    return ["the setup's %s is not %s" % (
                        field, "the result of %s" % name if revealed_seed
                        else "null before the reveal (it is hidden)")]
    purposes = {d.get("seq"): d.get("purpose") for d in draws
                if isinstance(d, dict) and d.get("seq") is not None}
    stack = []
    made_at = {}
    revealed = False
    for item in log:
        entry = item.get("entry") if isinstance(item, dict) else None
        if not isinstance(entry, dict):
            continue
        kind = entry.get("entry")
        if kind == "reveal":
            revealed = True
        elif kind == "undo":
            _pop_unit(stack)
        elif kind == "action":
            stack.append((item.get("seq"), entry))
        elif kind == "draw":
            manual = entry.get("manual") is not False
            if manual and export.get("commitment") is not None and not revealed:
                return ["entry #%s is a moderator's draw before the seed's reveal in a game with "
                        "audited dice (audited draws relabelled as manual?)" % item.get("seq")]
            if not manual:
                where = (len(stack), purposes.get(item.get("seq")))
                index = entry.get("index")
                # The index of the purposes the bot hosts is fixed by the position (section
                # 8.6): a dividend draw's is its history position, a round's chips' the round.
                wanted = None
                if where[1] == PURPOSE_DIVIDEND_DRAW:
                    wanted = len(stack)
                elif where[1] == PURPOSE_PRIVATES_CHIPS:
                    wanted = 2 + sum(1 for s, _ in stack
                                     if purposes.get(s) == PURPOSE_PRIVATES_CHIPS)
                if wanted is not None and (not _is_int(index) or index != wanted):
                    return ["entry #%s draws %s at index %s, but its position makes the index %d"
                            % (item.get("seq"), where[1], index, wanted)]
                if where in made_at and made_at[where] != index:
                    return ["entry #%s redoes the %s draw made at history position %d under "
                            "index %s, not under the index %s of the draw it redoes (a re-roll)"
                            % (item.get("seq"), where[1], where[0], index, made_at[where])]
                made_at.setdefault(where, index)
            stack.append((item.get("seq"), entry))
    return []


# --------------------------------------------------------------------------- verification


class CannotVerify(Exception):
    """The export as a whole cannot be checked."""


class BadRecord(Exception):
    """One draw record is malformed."""


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _counts(value, colours):
    """A dict of integer counts 0..=255 for exactly these colours, or None."""
    if not isinstance(value, dict) or not all(
        _is_int(value.get(c)) and 0 <= value.get(c) <= 255 for c in colours
    ):
        return None
    return value


def _index_zero(index, purpose):
    if index != 0:
        raise BadRecord("%s must be drawn at index 0" % purpose)


def _expected_for(record, seed, game_id, version=VERSION_V1, client_seed=None):
    """The draw a record should hold, recomputed; BadRecord if its inputs are malformed."""
    if not isinstance(record, dict):
        raise BadRecord("record is not an object")
    index = record.get("index")
    purpose = record.get("purpose")
    if not _is_int(index) or not 0 <= index < 1 << 64:
        raise BadRecord("index is not an unsigned 64-bit integer")
    message_id = None
    if version == VERSION_V2:
        message_id = record.get("message_id")
        if not isinstance(message_id, str) or not DECIMAL.match(message_id):
            raise BadRecord("a v2 record needs message_id, the message's id as decimal digits")
    if version == VERSION_V3:
        if "message_id" in record:
            raise BadRecord("a v3 record has no message_id: its key is its position and the "
                            "game's client seed")
        if not isinstance(client_seed, str):
            raise BadRecord("a v3 draw needs the game's client seed (client_seed)")
        message_id = client_seed
    key = {"version": version, "message_id": message_id}
    if purpose == PURPOSE_PLAYER_ORDER:
        _index_zero(index, purpose)
        players = record.get("players")
        if not _is_int(players) or not 3 <= players <= 5:
            raise BadRecord("player-order needs players between 3 and 5")
        return player_order(seed, game_id, players, **key)
    if purpose == PURPOSE_CITY_CUBES:
        _index_zero(index, purpose)
        return city_cubes(seed, game_id, **key)
    if purpose == PURPOSE_DIVIDEND_DRAW:
        supply = _counts(record.get("supply"), COLOURS)
        if supply is None:
            raise BadRecord("dividend-draw needs a supply of white, pink and black counts 0..=255")
        return dividend_draw(seed, game_id, index, supply, **key)
    if purpose == PURPOSE_PRIVATES_DEALER:
        _index_zero(index, purpose)
        players = record.get("players")
        if not _is_int(players) or not 2 <= players <= 6:
            raise BadRecord("privates-dealer needs players between 2 and 6")
        return privates_dealer(seed, game_id, players, **key)
    if purpose == PURPOSE_PRIVATES_DECK:
        _index_zero(index, purpose)
        copies = record.get("copies")
        if not _is_int(copies) or copies not in PRIVATES_COPIES:
            raise BadRecord("privates-deck needs copies 6 or 5")
        return privates_deck(seed, game_id, copies, **key)
    if purpose == PURPOSE_PRIVATES_CHIPS:
        if index < 1:
            raise BadRecord("privates-chips is drawn at the round number, 1 or more")
        bag = _counts(record.get("bag"), CHIP_COLOURS)
        if bag is None:
            raise BadRecord(
                "privates-chips needs a bag of red, yellow, green, blue and black counts 0..=255"
            )
        return privates_chips(seed, game_id, index, bag, **key)
    if purpose == PURPOSE_SIGNUP_PICK:
        _index_zero(index, purpose)
        signups, picks = record.get("signups"), record.get("picks")
        if (
            not _is_int(signups)
            or not 1 <= signups <= MAX_SIGNUPS
            or not _is_int(picks)
            or not 1 <= picks <= signups
        ):
            raise BadRecord("signup-pick needs signups (1 to 1000) and picks (1 to signups)")
        return signup_pick(seed, game_id, signups, picks, **key)
    raise BadRecord("unknown purpose %r" % (purpose,))


MAX_POPULATION = 1 << 20


def _described(record, seed, game_id, version, key_message):
    """The draw of a self-described record (docs/DICE.md section 7.1): `count` items of
    `population` without replacement, from the stream of (index, purpose); None when the record
    does not describe itself. Needs no knowledge of the purpose."""
    if "population" not in record and "count" not in record:
        return None
    population, count = record.get("population"), record.get("count")
    if not isinstance(population, list) or len(population) > MAX_POPULATION:
        raise BadRecord("population is not a list (of at most %d items)" % MAX_POPULATION)
    if not _is_int(count) or count < 0:
        raise BadRecord("count is not a non-negative integer")
    stream = draw_stream(seed, game_id, record["index"], record["purpose"], version, key_message)
    return stream.pick_without_replacement(population, count)


def _expected(record, seed, game_id, version=VERSION_V1, client_seed=None):
    """What a record should hold: by its purpose when this script knows it (and then its
    population, if it describes one, must give the same draw), else from its own description."""
    try:
        specific = _expected_for(record, seed, game_id, version, client_seed)
    except BadRecord as err:
        if not str(err).startswith("unknown purpose") or not isinstance(record, dict):
            raise
        specific = None
    message_id = record.get("message_id") if version == VERSION_V2 else None
    if version == VERSION_V3:
        message_id = client_seed
    if specific is None:
        if not isinstance(record.get("purpose"), str):
            raise BadRecord("purpose is not a string")
        described = _described(record, seed, game_id, version, message_id)
        if described is None:
            raise BadRecord("unknown purpose %r and no population to draw from"
                            % (record.get("purpose"),))
        return described
    if "population" in record or "count" in record:
        described = _described(record, seed, game_id, version, message_id)
        if not _same(specific, described):
            raise BadRecord("its population and count do not give the draw its purpose's inputs "
                            "give")
    return specific


def _same(expected, recorded):
    if not isinstance(recorded, list) or len(recorded) != len(expected):
        return False
    for e, r in zip(expected, recorded):
        if type(e) is not type(r) or e != r:
            return False
    return True


def _fmt(value):
    return json.dumps(value, separators=(",", ":"))


def _pop_unit(stack):
    """An undo takes back the last move, or a draw together with the move that called for it."""
    if not stack:
        return
    _, last = stack.pop()
    if last.get("entry") == "draw" and stack and stack[-1][1].get("entry") == "action":
        stack.pop()


def check_record(export):
    """The completeness checks of a game record (an export with a `log`, docs/DICE.md section 8):
    return the list of problems found (empty when the record is whole)."""
    log = export.get("log")
    draws = export.get("draws") or []
    if not isinstance(log, list):
        return ["the record's log is not a list"]
    problems = []
    for i, item in enumerate(log):
        if not isinstance(item, dict) or item.get("seq") != i or not isinstance(item.get("entry"), dict):
            return ["the log is not numbered 0, 1, 2 ...: entry %d is %r (an entry is missing or "
                    "out of order)" % (i, item.get("seq") if isinstance(item, dict) else item)]
    stack = []
    for item in log:
        kind = item["entry"].get("entry")
        if kind in ("action", "draw"):
            stack.append((item["seq"], item["entry"]))
        elif kind == "undo":
            _pop_unit(stack)
    kept = set(seq for seq, _ in stack)
    for item in log:
        kind = item["entry"].get("entry")
        undone = kind in ("action", "draw") and item["seq"] not in kept
        if bool(item.get("undone")) != undone:
            problems.append("entry #%d is marked %s but its undos make it %s" % (
                item["seq"], "undone" if item.get("undone") else "in force",
                "undone" if undone else "in force"))
    audited_entries = {}
    for item in log:
        entry = item["entry"]
        if entry.get("entry") == "draw" and entry.get("manual") is False:
            audited_entries[item["seq"]] = entry
    seen = set()
    setup_purposes = []
    for record in draws:
        if not isinstance(record, dict):
            continue
        seq = record.get("seq")
        if seq is None:
            setup_purposes.append(record.get("purpose"))
            continue
        entry = audited_entries.get(seq)
        if entry is None:
            problems.append("the draw record at #%s (%s) has no audited draw entry in the log"
                            % (seq, record.get("purpose")))
            continue
        if seq in seen:
            problems.append("entry #%s has two draw records" % seq)
            continue
        seen.add(seq)
        if entry.get("index") != record.get("index"):
            problems.append("the draw record at #%s has index %s but its entry %s"
                            % (seq, record.get("index"), entry.get("index")))
        if entry.get("message_id") != record.get("message_id"):
            problems.append("the draw record at #%s is keyed by %s but its entry by %s"
                            % (seq, record.get("message_id"), entry.get("message_id")))
        for field in ("cubes", "chips"):
            if field in entry and entry[field] != record.get("result"):
                problems.append("the draw record at #%s differs from its log entry" % seq)
        if bool(record.get("undone")) != (seq not in kept):
            problems.append("the draw record at #%s is marked %s wrongly"
                            % (seq, "undone" if record.get("undone") else "in force"))
    for seq in sorted(audited_entries):
        if seq not in seen:
            problems.append("the audited draw at #%d has no draw record" % seq)
    setup = export.get("setup") if isinstance(export.get("setup"), dict) else {}
    if export.get("kind") == "irish-gauge" and setup.get("dice") == "audited":
        game_setup = [p for p in setup_purposes if p != PURPOSE_SIGNUP_PICK]
        if sorted(game_setup) != sorted([PURPOSE_PLAYER_ORDER, PURPOSE_CITY_CUBES]):
            problems.append("the setup rolls are not both recorded: %r" % (setup_purposes,))
        # Every dividend call of an audited game is answered at once by its draw, until the seed
        # is revealed (later draws are the moderator's).
        revealed = False
        for i, item in enumerate(log):
            entry = item["entry"]
            if entry.get("entry") == "reveal":
                revealed = True
            action = entry.get("action") if isinstance(entry.get("action"), dict) else {}
            if entry.get("entry") == "action" and action.get("action") == "call_dividends" \
                    and not revealed:
                following = log[i + 1]["entry"] if i + 1 < len(log) else {}
                if following.get("entry") != "draw" or following.get("manual") is not False:
                    problems.append("the dividend call at #%d has no draw after it" % i)
    return problems


def _record_checks(export, witnesses, out):
    """The checks of a game record (an export with a `format`): completeness and, for
    gaugebot-record-v2, the hash chain. Prints and returns the problems."""
    problems = check_record(export)
    fmt = export.get("format")
    if (export.get("version") == VERSION_V3) != (fmt == FORMAT_V3):
        problems = ["a record of format %s with dice %s: %s dice are recorded only in %s "
                    "records, and those record only %s dice (the record was downgraded or "
                    "relabelled)" % (fmt, export.get("version"), VERSION_V3, FORMAT_V3,
                                     VERSION_V3)] + problems
    if fmt in (FORMAT_V2, FORMAT_V3):
        chain = check_chain(export, witnesses)
        rules = check_keys(export) if fmt == FORMAT_V2 else check_v3(export)
        problems = chain + rules + problems
        # The seed is revealed exactly when the log has a reveal entry.
        log = export.get("log") if isinstance(export.get("log"), list) else []
        reveals = [e.get("seq") for e in log if isinstance(e, dict)
                   and isinstance(e.get("entry"), dict) and e["entry"].get("entry") == "reveal"]
        if export.get("commitment") is not None:
            if export.get("seed") is not None and not reveals:
                problems.append("the seed is revealed but the log has no reveal entry (was its "
                                "tail cut?)")
        if not chain:
            summary = export["chain"]
            print("chain whole: %d links, head %s after %s%s" % (
                1 + len(export.get("log") or []) + len(export.get("draws") or []),
                summary["head"][:SHORT_HEAD], _seq_name(summary.get("seq")),
                ", %d witness(es) match" % len(witnesses) if witnesses else ""), file=out)
    elif fmt == FORMAT_V1:
        if witnesses:
            problems = ["a gaugebot-record-v1 has no chain to check witnesses against"] + problems
    else:
        raise CannotVerify("unknown record format %r (expected %s, %s or %s)"
                           % (fmt, FORMAT_V1, FORMAT_V2, FORMAT_V3))
    for problem in problems:
        print("INCOMPLETE %s" % problem, file=out)
    if not problems:
        log = export.get("log") or []
        print("record complete: %d log entries numbered 0-%d, every audited draw recorded"
              % (len(log), max(len(log) - 1, 0)), file=out)
    return problems


def verify_manual(export, witnesses, out):
    """A record of a game with manual dice: no seed and no commitment; its chain and
    completeness are checked and the moderator's draws listed."""
    if export.get("seed") is not None:
        raise CannotVerify("a record without a commitment has a seed")
    print("game %s: manual dice: no seed, no commitment; the moderator entered every draw"
          % (export.get("game_id"),), file=out)
    count = 0
    for item in export.get("log") or []:
        entry = item.get("entry") if isinstance(item, dict) else None
        if isinstance(entry, dict) and entry.get("entry") == "draw":
            count += 1
            fields = {k: v for k, v in entry.items() if k != "entry"}
            print("MANUAL   #%s %s%s" % (item.get("seq"), _fmt(fields),
                                       " (undone)" if item.get("undone") else ""), file=out)
    problems = _record_checks(export, witnesses, out)
    print("summary: %d manual draws listed, nothing to recompute" % count, file=out)
    if problems:
        print("VERIFICATION FAILED", file=out)
        return EXIT_MISMATCH
    print("RECORD VERIFIED (manual dice)", file=out)
    return EXIT_VERIFIED


def verify_export(export, out=None, witnesses=()):
    """Print one line per draw and a summary (to out, by default standard output); return the
    exit status (0, 1 or 2). Raises CannotVerify when the export as a whole is invalid (2)."""
    if out is None:
        out = sys.stdout
    if not isinstance(export, dict):
        raise CannotVerify("the export is not a JSON object")
    if witnesses and "format" not in export:
        raise CannotVerify("witnesses are checked against a game record (from !export)")
    if "format" in export and export.get("commitment") is None:
        return verify_manual(export, witnesses, out)
    version = export.get("version")
    if version not in VERSIONS:
        raise CannotVerify(
            "unsupported version %r (expected one of %s)" % (version, ", ".join(VERSIONS))
        )
    game_id = export.get("game_id")
    commitment = export.get("commitment")
    seed_hex = export.get("seed")
    draws = export.get("draws")
    client_seed = export.get("client_seed")
    record_field = any(f in export for f in ("log", "setup", "kind", "chain", "format"))
    whole = export.get("format") == FORMAT_V3 and export.get("chain") is not None
    if version == VERSION_V3 and record_field and not whole:
        # A v3 game record stripped of its format or chain is not whole.
        print("INCOMPLETE a %s game record must have format %s and its chain (its format or "
              "chain was stripped or changed)" % (VERSION_V3, FORMAT_V3), file=out)
        print("VERIFICATION FAILED", file=out)
        return EXIT_MISMATCH
    if not isinstance(game_id, str):
        raise CannotVerify("game_id is missing")
    if not isinstance(commitment, str) or not HEX64.match(commitment):
        raise CannotVerify("commitment is not 64 hex digits")
    if seed_hex is None:
        raise CannotVerify("seed not yet revealed")
    if not isinstance(seed_hex, str) or not HEX64.match(seed_hex):
        raise CannotVerify("seed is not 64 hex digits")
    if not isinstance(draws, list):
        raise CannotVerify("draws is not a list")
    seed = bytes.fromhex(seed_hex)
    actual = hashlib.sha256(seed).hexdigest()
    committed = actual == commitment.lower()
    if committed:
        print("game %s (%s): commitment %s matches the revealed seed" % (game_id, version, actual),
              file=out)
    else:
        # The draws are still recomputed from the revealed seed, for the record.
        print(
            "COMMITMENT MISMATCH game %s (%s): sha256(seed) = %s but the commitment is %s"
            % (game_id, version, actual, commitment),
            file=out,
        )

    ok = mismatched = malformed = 0
    for position, record in enumerate(draws):
        label = "#%d" % position
        if isinstance(record, dict):
            label = "#%d index=%s %s" % (position, record.get("index"), record.get("purpose"))
            if version == VERSION_V2:
                label += " message=%s" % (record.get("message_id"),)
        try:
            expected = _expected(record, seed, game_id, version, client_seed)
        except BadRecord as err:
            malformed += 1
            print("ERROR    %s: %s" % (label, err), file=out)
            continue
        recorded = record.get("result")
        if version == VERSION_V3 and record.get("hidden") is True:
            # The sealed hash published before the reveal binds the hidden draw's result.
            key = draw_key(seed, game_id, record["index"], record["purpose"], version,
                           client_seed)
            if record.get("sealed") != sealed_hash(key, expected):
                mismatched += 1
                print("MISMATCH %s sealed hash: expected %s recorded %s"
                      % (label, sealed_hash(key, expected), record.get("sealed")), file=out)
                continue
        if _same(expected, recorded):
            ok += 1
            print("OK       %s %s" % (label, _fmt(expected)), file=out)
        else:
            mismatched += 1
            print(
                "MISMATCH %s expected %s recorded %s" % (label, _fmt(expected), _fmt(recorded)),
                file=out,
            )
    total = len(draws)
    incomplete = []
    if "format" in export:
        incomplete = _record_checks(export, witnesses, out)
    elif "log" in export:
        incomplete = check_record(export)
        for problem in incomplete:
            print("INCOMPLETE %s" % problem, file=out)
    print(
        "summary: %d draws, %d OK, %d mismatched, %d malformed; commitment %s"
        % (total, ok, mismatched, malformed, "matches" if committed else "MISMATCHED"),
        file=out,
    )
    if malformed:
        plural = "" if malformed == 1 else "s"
        print("INVALID EXPORT: %d malformed draw record%s" % (malformed, plural), file=out)
        return EXIT_INVALID
    if mismatched or not committed or incomplete:
        print("VERIFICATION FAILED", file=out)
        return EXIT_MISMATCH
    print("ALL DRAWS VERIFIED", file=out)
    return EXIT_VERIFIED


# --------------------------------------------------------------------------- self-test

TEST_SEED_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
TEST_GAME_ID = "test-game"
TEST_SUPPLY = {"white": 7, "pink": 8, "black": 7}
TEST_DIVIDEND_INDEX = 12

# Fixed test vectors (docs/DICE.md); the Rust tests in bot/src/dice.rs hard-code the same
# values. They were first computed by this script.
EXPECTED_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
EXPECTED_KEY_PLAYER_ORDER = "03253273b50e835de9fcc2d1efc1ce085da25d5f8aa01564bfd6a0b6b3b8e878"
EXPECTED_KEY_CITY_CUBES = "2494de6ad5ad77b969a6b173af2bb45cc3800843524330ccc8391d3721834c54"
EXPECTED_KEY_DIVIDEND = "7fde711ab856062cdc263436de0ef851b05f9de224bf5a34f575d6ef1c2f9d14"
EXPECTED_WORDS = [2570235227, 2846557017, 3453062251, 4049679983]
REJECTION_BOUND = (1 << 31) + 1
EXPECTED_REJECTION = [373383135, 1783334843, 313863242, 1385407034]
EXPECTED_PLAYER_ORDER = {3: [3, 2, 1], 4: [4, 1, 3, 2], 5: [3, 2, 4, 5, 1]}
EXPECTED_CITY_CUBES = [10, 2, 8, 4, 5, 6, 3, 12]
EXPECTED_DIVIDEND = ["white", "white", "pink"]


# gaugebot-dice-v2 and Privates (docs/DICE.md section 9). Computed by this script and
# cross-checked against OpenSSL's ChaCha20 (the self-test repeats that check when the
# openssl command is available).
TEST_V2_SETUP_MESSAGE = "1187654321098765435"
TEST_V2_DIVIDEND_MESSAGE = "1187654987654321098"
EXPECTED_V2_KEY_PLAYER_ORDER = "4893a2f636216eddc0556d9786b457714dbf153815ce047d25bb0a4dd3dad21e"
EXPECTED_V2_KEY_CITY_CUBES = "30e4946ab88a4f95c8a3d8b522981457a9f82373974a1deb5b451b07e66bdbae"
EXPECTED_V2_KEY_DIVIDEND = "08b1d97c39a94006c998cf725c2b0675346c062567b13a3fec7d7292a54e6cdc"
EXPECTED_V2_WORDS = [4123278155, 2318355670, 3218373244, 3075799232]
EXPECTED_V2_PLAYER_ORDER = {3: [3, 1, 2], 4: [4, 2, 1, 3], 5: [1, 4, 3, 2, 5]}
EXPECTED_V2_CITY_CUBES = [9, 2, 5, 12, 4, 11, 6, 7]
EXPECTED_V2_DIVIDEND = ["pink", "black", "black"]

TEST_PRIVATES_GAME_ID = "test-privates"
TEST_PRIVATES_SETUP_MESSAGE = "1190123456789012345"
TEST_PRIVATES_ROUND_MESSAGE = "1190123499999999999"
TEST_BAG_ROUND_1 = {"red": 2, "yellow": 2, "green": 2, "blue": 2, "black": 2}
TEST_BAG_ROUND_7 = {"red": 0, "yellow": 1, "green": 2, "blue": 0, "black": 1}
EXPECTED_KEY_PRIVATES_DEALER = "2548b98cc4e0dc095d2ab51dbd53cd0eb206d142a0d65d13004d2405bd9993f5"
EXPECTED_KEY_PRIVATES_DECK = "5d7757474a0e73e8d1c4600d1f4ba5a472ae4b101f816c6033910c1126ce0103"
EXPECTED_KEY_PRIVATES_CHIPS_1 = "c07d1fd4a2b0c02494bd0dbb171f995aff4e36e0295ddeca7beb413facc96e40"
EXPECTED_KEY_PRIVATES_CHIPS_7 = "99608eae04b5ec8469031205ffd318f215770c2c00c670da01aab084d9559291"
EXPECTED_PRIVATES_DEALER = {2: [2], 3: [1], 4: [4], 5: [3], 6: [4]}
EXPECTED_PRIVATES_DECK = {
    6: [
        30, 50, 5, 20, 25, 10, 25, 40, 5, 40, 35, 15, 30, 40, 10, 5, 5, 50,
        40, 30, 20, 20, 50, 10, 25, 30, 35, 50, 35, 15, 15, 40, 20, 15, 10, 25,
        30, 10, 15, 5, 10, 15, 25, 30, 50, 50, 35, 20, 25, 35, 20, 40, 35, 5,
    ],
    5: [
        50, 30, 25, 10, 50, 10, 20, 15, 30, 25, 5, 25, 30, 40, 10, 15, 25, 35,
        40, 20, 40, 30, 35, 25, 35, 15, 20, 15, 50, 40, 10, 5, 35, 20, 10, 40,
        5, 20, 50, 5, 15, 5, 35, 50, 30,
    ],
}
EXPECTED_PRIVATES_CHIPS_1 = ["green", "red", "red", "blue", "black", "blue", "yellow"]
EXPECTED_PRIVATES_CHIPS_7 = ["green", "green", "black", "yellow"]
EXPECTED_V2_KEY_PRIVATES_DEALER = "a42ce7260e61c0d90f5a9304623b49f31853d161d267f3d8ab643d56d426831a"
EXPECTED_V2_KEY_PRIVATES_DECK = "895f129364fcb4e23b60a35203afe4918824f1814cc01fa95d8c64da87fb9c33"
EXPECTED_V2_KEY_PRIVATES_CHIPS_1 = "f9502eee566ed43f86bcbb1807dc62222b6fcf43d857149d43c080a3003a89da"
EXPECTED_V2_PRIVATES_DEALER = [4]
EXPECTED_V2_PRIVATES_DECK = [
    25, 5, 50, 10, 5, 25, 30, 15, 10, 50, 5, 10, 5, 15, 25, 35, 25, 20,
    20, 40, 20, 30, 40, 20, 15, 10, 20, 50, 50, 10, 50, 25, 15, 40, 25, 5,
    50, 40, 15, 35, 35, 15, 30, 5, 30, 10, 30, 30, 35, 35, 40, 20, 35, 40,
]
EXPECTED_V2_PRIVATES_CHIPS_1 = ["blue", "yellow", "green", "black", "red", "blue", "black"]
# Signups (the table core), game id TEST_GAME_ID; v2 with the `!signup open` message's id.
EXPECTED_KEY_SIGNUP_PICK = "d0dd6564cf0f8fdfe2cadb0ec6519ac7e3eee4f3ce21e774c684ea6521fb7049"
EXPECTED_SIGNUP_PICK = {(6, 4): [5, 3, 1, 2], (5, 3): [3, 5, 1], (7, 4): [5, 7, 4, 3]}
EXPECTED_V2_KEY_SIGNUP_PICK = "b96385eb569272888dd7e49277a961bdcf442005bb9f3b2c77063aece63f264c"
EXPECTED_V2_SIGNUP_PICK_6_4 = [4, 2, 3, 1]

# gaugebot-dice-v3 (docs/DICE.md section 9.6): the same seed; the client seed is the setup
# message's id.
TEST_V3_CLIENT_IRISH = "1187654321098765435"
TEST_V3_CLIENT_PRIVATES = "1190123456789012345"
EXPECTED_V3_KEY_PLAYER_ORDER = "5df013b44fd7f48ac19c9a2d96dfa7a1aef4bb6b8b2cb3e0865b9fd2f16dac77"
EXPECTED_V3_WORDS = [2063778766, 4028137347, 960946580, 2538185913]
EXPECTED_V3_PLAYER_ORDER_4 = [3, 1, 2, 4]
EXPECTED_V3_CITY_CUBES = [10, 11, 3, 2, 9, 4, 5, 6]
EXPECTED_V3_KEY_DIVIDEND = "3781094f9c9f225dafb000a753e4de560a0eeca175c3d978b17acf9bcf3fd60a"
EXPECTED_V3_DIVIDEND = ["white", "black", "pink"]
EXPECTED_V3_KEY_PRIVATES_DEALER = "255fe67e4da307cfda3695e5a5396452079c7cfe2264f7e42a237eece1ca64f3"
EXPECTED_V3_PRIVATES_DEALER_4 = [3]
EXPECTED_V3_KEY_PRIVATES_DECK = "bddb191bd56c91fa84b2d19836d5bcc9cb3411042ae1543a01c59cc99a848892"
EXPECTED_V3_PRIVATES_DECK = [
    25, 40, 20, 40, 50, 30, 10, 40, 50, 35, 5, 20, 15, 15, 35, 15, 30, 35, 30, 10, 40, 10, 20,
    35, 15, 5, 50, 5, 10, 25, 30, 10, 20, 35, 40, 5, 5, 15, 35, 10, 25, 50, 30, 5, 30, 25, 20,
    50, 25, 40, 15, 50, 25, 20]
EXPECTED_V3_SEALED_DECK = "b4e923c93499edd4ed5df3664f0962917b3b9045e6da90faa23301e769a2918c"
EXPECTED_V3_KEY_PRIVATES_CHIPS_1 = \
    "68e92a304de3d3a7b05d797de89a99cb228378fb2881dfb63a3ae0fa103b09c4"
EXPECTED_V3_PRIVATES_CHIPS_1 = ["red", "black", "green", "black", "blue", "yellow", "red"]
EXPECTED_V3_CHAIN_HEADER = "a316b81bcf78946ec437c4dfe4aa884dfafd7e5c1d74bf35d3b4449d6af978f3"
EXPECTED_V3_CHAIN_DECK = "b2ca3c26525b2b1ab454822ceaec38cc70d94ab85cb0e86d7e38d2b96177f7cb"


def openssl_keystream(key, length):
    """ChaCha20 keystream bytes from the openssl command (16-byte IV: 32-bit little-endian
    block counter 0, then the 12-byte zero nonce), or None with the reason it is unavailable."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        return None, "openssl not found"
    try:
        run = subprocess.run(
            ["openssl", "enc", "-chacha20", "-K", key.hex(), "-iv", "00" * 16],
            input=bytes(length),
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as err:
        return None, "openssl failed to run: %s" % err
    if run.returncode != 0 or len(run.stdout) != length:
        return None, "openssl has no ChaCha20: %s" % run.stderr.decode("utf-8", "replace").strip()
    return run.stdout, None


def _selftest_exports():
    """(name, export or raw file text, expected exit status) for the exit-status checks."""
    v1 = {
        "version": VERSION_V1,
        "game_id": TEST_GAME_ID,
        "commitment": EXPECTED_COMMITMENT,
        "seed": TEST_SEED_HEX,
        "draws": [
            {"index": 0, "purpose": PURPOSE_PLAYER_ORDER, "players": 4,
             "result": EXPECTED_PLAYER_ORDER[4]},
            {"index": 0, "purpose": PURPOSE_CITY_CUBES, "result": EXPECTED_CITY_CUBES},
            {"index": TEST_DIVIDEND_INDEX, "purpose": PURPOSE_DIVIDEND_DRAW,
             "supply": TEST_SUPPLY, "result": EXPECTED_DIVIDEND},
        ],
    }
    v2 = dict(v1, version=VERSION_V2, draws=[
        {"index": 0, "purpose": PURPOSE_PLAYER_ORDER, "players": 4,
         "message_id": TEST_V2_SETUP_MESSAGE, "result": EXPECTED_V2_PLAYER_ORDER[4]},
        {"index": 0, "purpose": PURPOSE_CITY_CUBES, "message_id": TEST_V2_SETUP_MESSAGE,
         "result": EXPECTED_V2_CITY_CUBES},
        {"index": TEST_DIVIDEND_INDEX, "purpose": PURPOSE_DIVIDEND_DRAW, "supply": TEST_SUPPLY,
         "message_id": TEST_V2_DIVIDEND_MESSAGE, "result": EXPECTED_V2_DIVIDEND},
    ])
    privates_v1 = dict(v1, game_id=TEST_PRIVATES_GAME_ID, draws=[
        {"index": 0, "purpose": PURPOSE_PRIVATES_DEALER, "players": 5,
         "result": EXPECTED_PRIVATES_DEALER[5]},
        {"index": 0, "purpose": PURPOSE_PRIVATES_DECK, "copies": 6,
         "result": EXPECTED_PRIVATES_DECK[6]},
        {"index": 1, "purpose": PURPOSE_PRIVATES_CHIPS, "bag": TEST_BAG_ROUND_1,
         "result": EXPECTED_PRIVATES_CHIPS_1},
    ])
    privates_v2 = dict(v1, version=VERSION_V2, game_id=TEST_PRIVATES_GAME_ID, draws=[
        {"index": 0, "purpose": PURPOSE_PRIVATES_DECK, "copies": 6,
         "message_id": TEST_PRIVATES_SETUP_MESSAGE, "result": EXPECTED_V2_PRIVATES_DECK},
        {"index": 1, "purpose": PURPOSE_PRIVATES_CHIPS, "bag": TEST_BAG_ROUND_1,
         "message_id": TEST_PRIVATES_ROUND_MESSAGE, "result": EXPECTED_V2_PRIVATES_CHIPS_1},
    ])

    signups_v1 = dict(v1, draws=[
        {"index": 0, "purpose": PURPOSE_SIGNUP_PICK, "signups": 6, "picks": 4,
         "signed_up": ["a", "b", "c", "d", "e", "f"], "result": EXPECTED_SIGNUP_PICK[(6, 4)]},
        {"index": 0, "purpose": PURPOSE_PLAYER_ORDER, "players": 4,
         "result": EXPECTED_PLAYER_ORDER[4]},
    ])

    def changed(export, position=None, **fields):
        copy = json.loads(json.dumps(export))
        if position is None:
            copy.update(fields)
        else:
            copy["draws"][position].update(fields)
        return copy

    no_message = changed(v2)
    del no_message["draws"][1]["message_id"]
    return [
        ("v1 export verifies", v1, EXIT_VERIFIED),
        ("v2 export verifies", v2, EXIT_VERIFIED),
        ("Privates v1 export verifies", privates_v1, EXIT_VERIFIED),
        ("Privates v2 export verifies", privates_v2, EXIT_VERIFIED),
        ("a changed result mismatches", changed(v1, 2, result=["pink", "pink", "pink"]),
         EXIT_MISMATCH),
        ("another message id mismatches", changed(v2, 2, message_id="1"), EXIT_MISMATCH),
        ("v2 records read as v1 mismatch", changed(v2, version=VERSION_V1), EXIT_MISMATCH),
        ("a commitment mismatch", changed(v1, seed="ff" * 32), EXIT_MISMATCH),
        ("a seed not yet revealed is invalid", changed(v1, seed=None), EXIT_INVALID),
        ("an unknown version is invalid", changed(v1, version="gaugebot-dice-v0"), EXIT_INVALID),
        ("a malformed record is invalid", changed(privates_v1, 1, copies=4), EXIT_INVALID),
        ("a signup pick verifies", signups_v1, EXIT_VERIFIED),
        ("a changed signup pick mismatches", changed(signups_v1, 0, result=[1, 2, 3, 4]),
         EXIT_MISMATCH),
        ("more picks than signups is invalid", changed(signups_v1, 0, picks=7), EXIT_INVALID),
        ("a v2 record without message_id is invalid", no_message, EXIT_INVALID),
        ("a file that is not JSON is invalid", '{"version": ', EXIT_INVALID),
    ]


def _selftest_exit_status(out):
    """Runs the verifier on small export files; returns the number of wrong exit statuses."""
    import io
    import os
    import tempfile

    print("== exit status", file=out)
    failures = 0
    with tempfile.TemporaryDirectory() as directory:
        for number, (name, export, expected) in enumerate(_selftest_exports()):
            path = os.path.join(directory, "export-%d.json" % number)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(export if isinstance(export, str) else json.dumps(export))
            quiet = io.StringIO()
            saved = sys.stdout, sys.stderr
            sys.stdout = sys.stderr = quiet
            try:
                status = main([path])
            finally:
                sys.stdout, sys.stderr = saved
            ok = status == expected
            failures += not ok
            print("%-48s %d %s" % (name, status, "OK" if ok else "FAILED, expected %d" % expected),
                  file=out)
    return failures


# The hash chain (docs/DICE.md section 9.5).
TEST_CHAIN_SETUP = {"players": [], "setup": {}, "dice": "audited", "spec": VERSION_V2}
TEST_CHAIN_ENTRY = {
    "seq": 0, "entry": {"entry": "action", "seat": 0, "action": {"action": "bid", "amount": 7}},
    "message_id": "1187654321098765436", "author_id": "1", "author_name": "ann",
    "text": "**bid 7**", "at": "2026-01-01T00:00:00Z", "undone": True,
}
EXPECTED_CHAIN_HEADER = "08ec27565372d7b3395c6f943c8fee0e644b938738a7541c3efe2172a17042db"
EXPECTED_CHAIN_ENTRY_0 = "4cb463913a798df42a43b2a0c2c90fff931facda933502c434047db1203992ed"


def _selftest_chain(out):
    """The chain's test vectors, a whole chained record of a purpose this script does not know
    (recomputed from its description), and that tampering with it is caught."""
    failures = 0

    def check(name, ok):
        nonlocal failures
        failures += 0 if ok else 1
        print("%-48s %s" % (name, "OK" if ok else "FAILED"), file=out)

    print("== %s" % CHAIN, file=out)
    header = {"chain": CHAIN, "version": VERSION_V2, "game_id": TEST_GAME_ID,
              "kind": "irish-gauge", "commitment": EXPECTED_COMMITMENT,
              "setup": TEST_CHAIN_SETUP}
    head = link_hash(bytes(32), header)
    print("header    %s" % head.hex(), file=out)
    check("chain header hash", head.hex() == EXPECTED_CHAIN_HEADER)
    entry = dict(TEST_CHAIN_ENTRY, prev="not hashed")
    after = link_hash(head, entry)
    print("entry #0  %s" % after.hex(), file=out)
    check("chain entry #0 hash", after.hex() == EXPECTED_CHAIN_ENTRY_0)

    # A record of an unknown game: one setup draw that describes itself.
    seed = bytes.fromhex(TEST_SEED_HEX)
    message = TEST_V2_SETUP_MESSAGE
    draw = {"index": 0, "purpose": "test-unknown-game", "population": ["a", "b", "c", "d", "e"],
            "count": 3, "message_id": message}
    draw["result"] = draw_stream(seed, TEST_GAME_ID, 0, draw["purpose"], VERSION_V2,
                                 message).pick_without_replacement(draw["population"], 3)
    record = {"format": FORMAT_V2, "version": VERSION_V2, "game_id": TEST_GAME_ID,
              "kind": "test-unknown-game", "commitment": EXPECTED_COMMITMENT,
              "seed": TEST_SEED_HEX, "setup": {"setup_message": message}, "log": [],
              "draws": [draw]}
    h = link_hash(bytes(32), chain_header(record))
    draw["prev"] = h.hex()
    h = link_hash(h, draw)
    log = []
    for seq in range(2):
        kind = {"entry": "table", "event": "reminded"} if seq == 0 else {"entry": "reveal"}
        item = {"seq": seq, "entry": kind,
                "message_id": "clock", "author_id": "", "author_name": "", "text": "",
                "at": "2026-01-01T00:00:00Z", "undone": False, "prev": h.hex()}
        h = link_hash(h, item)
        log.append(item)
    record["log"] = log
    record["chain"] = {"algorithm": CHAIN, "head": h.hex(), "seq": 1, "entries": 2, "draws": 1}

    class Null:
        def write(self, _text):
            pass

    witness = [(1, h.hex()[:SHORT_HEAD])]
    check("unknown game, described draw: verified (0)",
          verify_export(record, Null(), witness) == EXIT_VERIFIED)
    cut = json.loads(json.dumps(record))
    cut["log"].pop()
    check("a dropped last entry: rejected (1)", verify_export(cut, Null()) == EXIT_MISMATCH)
    check("a cut tail against a witness: rejected (1)",
          verify_export(dict(cut, chain=dict(cut["chain"], seq=0, entries=1,
                                             head=log[1]["prev"])), Null(), witness)
          == EXIT_MISMATCH)
    edited = json.loads(json.dumps(record))
    edited["draws"][0]["population"] = ["a", "b", "c", "d", "f"]
    check("an edited population: rejected", verify_export(edited, Null()) != EXIT_VERIFIED)
    return failures


def selftest(out=None):
    global _STREAM_LOG
    if out is None:
        out = sys.stdout
    failures = 0

    def check(name, actual, expected):
        nonlocal failures
        if actual == expected:
            status = "OK"
        else:
            status = "FAILED, expected %r" % (expected,)
            failures += 1
        print("%-48s %s %s" % (name, actual, status), file=out)

    _STREAM_LOG = []
    try:
        # RFC 8439 section 2.3.2 block function test vector.
        block = chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))
        check(
            "rfc8439 2.3.2 block",
            block.hex(),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
        )

        seed = bytes.fromhex(TEST_SEED_HEX)
        game = TEST_GAME_ID
        print("== %s" % VERSION_V1, file=out)
        print("seed      %s" % TEST_SEED_HEX, file=out)
        print("game id   %s" % game, file=out)
        check("commitment", hashlib.sha256(seed).hexdigest(), EXPECTED_COMMITMENT)
        check(
            "draw key player-order index 0",
            draw_key(seed, game, 0, PURPOSE_PLAYER_ORDER).hex(),
            EXPECTED_KEY_PLAYER_ORDER,
        )
        check(
            "draw key city-cubes index 0",
            draw_key(seed, game, 0, PURPOSE_CITY_CUBES).hex(),
            EXPECTED_KEY_CITY_CUBES,
        )
        check(
            "draw key dividend-draw index 12",
            draw_key(seed, game, TEST_DIVIDEND_INDEX, PURPOSE_DIVIDEND_DRAW).hex(),
            EXPECTED_KEY_DIVIDEND,
        )
        stream = draw_stream(seed, game, 0, PURPOSE_PLAYER_ORDER)
        check("player-order stream first 4 words", [stream.next_u32() for _ in range(4)],
              EXPECTED_WORDS)
        stream = draw_stream(seed, game, 0, PURPOSE_PLAYER_ORDER)
        check(
            "player-order stream uniform(2^31+1) x4",
            [stream.uniform(REJECTION_BOUND) for _ in range(4)],
            EXPECTED_REJECTION,
        )
        for players in (3, 4, 5):
            check(
                "player-order players=%d" % players,
                player_order(seed, game, players),
                EXPECTED_PLAYER_ORDER.get(players),
            )
        check("city-cubes", city_cubes(seed, game), EXPECTED_CITY_CUBES)
        check(
            "dividend-draw index 12 supply 7/8/7",
            dividend_draw(seed, game, TEST_DIVIDEND_INDEX, TEST_SUPPLY),
            EXPECTED_DIVIDEND,
        )

        v2 = VERSION_V2
        setup_id, dividend_id = TEST_V2_SETUP_MESSAGE, TEST_V2_DIVIDEND_MESSAGE
        print("== %s (same seed and game id)" % v2, file=out)
        print("message id of the setup draws       %s" % setup_id, file=out)
        print("message id of the dividend draw     %s" % dividend_id, file=out)
        check(
            "v2 draw key player-order index 0",
            draw_key(seed, game, 0, PURPOSE_PLAYER_ORDER, v2, setup_id).hex(),
            EXPECTED_V2_KEY_PLAYER_ORDER,
        )
        check(
            "v2 draw key city-cubes index 0",
            draw_key(seed, game, 0, PURPOSE_CITY_CUBES, v2, setup_id).hex(),
            EXPECTED_V2_KEY_CITY_CUBES,
        )
        check(
            "v2 draw key dividend-draw index 12",
            draw_key(seed, game, TEST_DIVIDEND_INDEX, PURPOSE_DIVIDEND_DRAW, v2, dividend_id).hex(),
            EXPECTED_V2_KEY_DIVIDEND,
        )
        stream = draw_stream(seed, game, 0, PURPOSE_PLAYER_ORDER, v2, setup_id)
        check("v2 player-order stream first 4 words", [stream.next_u32() for _ in range(4)],
              EXPECTED_V2_WORDS)
        for players in (3, 4, 5):
            check(
                "v2 player-order players=%d" % players,
                player_order(seed, game, players, v2, setup_id),
                EXPECTED_V2_PLAYER_ORDER.get(players),
            )
        check("v2 city-cubes", city_cubes(seed, game, v2, setup_id), EXPECTED_V2_CITY_CUBES)
        check(
            "v2 dividend-draw index 12 supply 7/8/7",
            dividend_draw(seed, game, TEST_DIVIDEND_INDEX, TEST_SUPPLY, v2, dividend_id),
            EXPECTED_V2_DIVIDEND,
        )

        game = TEST_PRIVATES_GAME_ID
        print("== Privates, %s (same seed)" % VERSION_V1, file=out)
        print("game id   %s" % game, file=out)
        check(
            "draw key privates-dealer index 0",
            draw_key(seed, game, 0, PURPOSE_PRIVATES_DEALER).hex(),
            EXPECTED_KEY_PRIVATES_DEALER,
        )
        check(
            "draw key privates-deck index 0",
            draw_key(seed, game, 0, PURPOSE_PRIVATES_DECK).hex(),
            EXPECTED_KEY_PRIVATES_DECK,
        )
        check(
            "draw key privates-chips index 1",
            draw_key(seed, game, 1, PURPOSE_PRIVATES_CHIPS).hex(),
            EXPECTED_KEY_PRIVATES_CHIPS_1,
        )
        check(
            "draw key privates-chips index 7",
            draw_key(seed, game, 7, PURPOSE_PRIVATES_CHIPS).hex(),
            EXPECTED_KEY_PRIVATES_CHIPS_7,
        )
        for players in range(2, 7):
            check(
                "privates-dealer players=%d" % players,
                privates_dealer(seed, game, players),
                EXPECTED_PRIVATES_DEALER.get(players),
            )
        for copies in PRIVATES_COPIES:
            check(
                "privates-deck copies=%d" % copies,
                privates_deck(seed, game, copies),
                EXPECTED_PRIVATES_DECK.get(copies),
            )
        check(
            "privates-chips index 1 bag 2/2/2/2/2",
            privates_chips(seed, game, 1, TEST_BAG_ROUND_1),
            EXPECTED_PRIVATES_CHIPS_1,
        )
        check(
            "privates-chips index 7 bag 0/1/2/0/1",
            privates_chips(seed, game, 7, TEST_BAG_ROUND_7),
            EXPECTED_PRIVATES_CHIPS_7,
        )

        setup_id, round_id = TEST_PRIVATES_SETUP_MESSAGE, TEST_PRIVATES_ROUND_MESSAGE
        print("== Privates, %s (same seed and game id)" % v2, file=out)
        print("message id of the dealer and deck   %s" % setup_id, file=out)
        print("message id of round 1's chips       %s" % round_id, file=out)
        check(
            "v2 draw key privates-dealer index 0",
            draw_key(seed, game, 0, PURPOSE_PRIVATES_DEALER, v2, setup_id).hex(),
            EXPECTED_V2_KEY_PRIVATES_DEALER,
        )
        check(
            "v2 draw key privates-deck index 0",
            draw_key(seed, game, 0, PURPOSE_PRIVATES_DECK, v2, setup_id).hex(),
            EXPECTED_V2_KEY_PRIVATES_DECK,
        )
        check(
            "v2 draw key privates-chips index 1",
            draw_key(seed, game, 1, PURPOSE_PRIVATES_CHIPS, v2, round_id).hex(),
            EXPECTED_V2_KEY_PRIVATES_CHIPS_1,
        )
        check(
            "v2 privates-dealer players=4",
            privates_dealer(seed, game, 4, v2, setup_id),
            EXPECTED_V2_PRIVATES_DEALER,
        )
        check(
            "v2 privates-deck copies=6",
            privates_deck(seed, game, 6, v2, setup_id),
            EXPECTED_V2_PRIVATES_DECK,
        )
        check(
            "v2 privates-chips index 1 bag 2/2/2/2/2",
            privates_chips(seed, game, 1, TEST_BAG_ROUND_1, v2, round_id),
            EXPECTED_V2_PRIVATES_CHIPS_1,
        )

        game = TEST_GAME_ID
        print("== Signups (the table core), %s and %s (same seed, game id %s)"
              % (VERSION_V1, v2, game), file=out)
        check(
            "draw key signup-pick index 0",
            draw_key(seed, game, 0, PURPOSE_SIGNUP_PICK).hex(),
            EXPECTED_KEY_SIGNUP_PICK,
        )
        for (signups, picks), expected in sorted(EXPECTED_SIGNUP_PICK.items()):
            check(
                "signup-pick signups=%d picks=%d" % (signups, picks),
                signup_pick(seed, game, signups, picks),
                expected,
            )
        check(
            "v2 draw key signup-pick index 0",
            draw_key(seed, game, 0, PURPOSE_SIGNUP_PICK, v2, TEST_V2_SETUP_MESSAGE).hex(),
            EXPECTED_V2_KEY_SIGNUP_PICK,
        )
        check(
            "v2 signup-pick signups=6 picks=4",
            signup_pick(seed, game, 6, 4, v2, TEST_V2_SETUP_MESSAGE),
            EXPECTED_V2_SIGNUP_PICK_6_4,
        )

        v3 = VERSION_V3
        print("== %s (same seed; client seeds %s, %s)"
              % (v3, TEST_V3_CLIENT_IRISH, TEST_V3_CLIENT_PRIVATES), file=out)
        irish, client = TEST_GAME_ID, TEST_V3_CLIENT_IRISH
        check("v3 draw key player-order index 0",
              draw_key(seed, irish, 0, PURPOSE_PLAYER_ORDER, v3, client).hex(),
              EXPECTED_V3_KEY_PLAYER_ORDER)
        stream = draw_stream(seed, irish, 0, PURPOSE_PLAYER_ORDER, v3, client)
        check("v3 player-order stream first 4 words", [stream.next_u32() for _ in range(4)],
              EXPECTED_V3_WORDS)
        check("v3 player-order players=4", player_order(seed, irish, 4, v3, client),
              EXPECTED_V3_PLAYER_ORDER_4)
        check("v3 city-cubes", city_cubes(seed, irish, v3, client), EXPECTED_V3_CITY_CUBES)
        check("v3 draw key dividend-draw index 12",
              draw_key(seed, irish, TEST_DIVIDEND_INDEX, PURPOSE_DIVIDEND_DRAW, v3, client).hex(),
              EXPECTED_V3_KEY_DIVIDEND)
        check("v3 dividend-draw index 12 supply 7/8/7",
              dividend_draw(seed, irish, TEST_DIVIDEND_INDEX, TEST_SUPPLY, v3, client),
              EXPECTED_V3_DIVIDEND)
        privates, client = TEST_PRIVATES_GAME_ID, TEST_V3_CLIENT_PRIVATES
        check("v3 draw key privates-dealer index 0",
              draw_key(seed, privates, 0, PURPOSE_PRIVATES_DEALER, v3, client).hex(),
              EXPECTED_V3_KEY_PRIVATES_DEALER)
        check("v3 privates-dealer players=4", privates_dealer(seed, privates, 4, v3, client),
              EXPECTED_V3_PRIVATES_DEALER_4)
        deck_key = draw_key(seed, privates, 0, PURPOSE_PRIVATES_DECK, v3, client)
        check("v3 draw key privates-deck index 0", deck_key.hex(),
              EXPECTED_V3_KEY_PRIVATES_DECK)
        check("v3 privates-deck copies=6", privates_deck(seed, privates, 6, v3, client),
              EXPECTED_V3_PRIVATES_DECK)
        check("v3 sealed hash of the deck", sealed_hash(deck_key, EXPECTED_V3_PRIVATES_DECK),
              EXPECTED_V3_SEALED_DECK)
        check("v3 draw key privates-chips index 1",
              draw_key(seed, privates, 1, PURPOSE_PRIVATES_CHIPS, v3, client).hex(),
              EXPECTED_V3_KEY_PRIVATES_CHIPS_1)
        check("v3 privates-chips index 1 bag 2/2/2/2/2",
              privates_chips(seed, privates, 1, TEST_BAG_ROUND_1, v3, client),
              EXPECTED_V3_PRIVATES_CHIPS_1)
        header = {
            "chain": CHAIN_V2, "format": FORMAT_V3, "version": v3, "game_id": privates,
            "kind": "privates", "commitment": EXPECTED_COMMITMENT, "client_seed": client,
            "setup": redacted_setup(
                {"players": [], "setup": {"deck": [5, 10]}, "dice": "audited", "spec": v3,
                 "setup_message": client},
                [{"hidden": True, "fills": "deck"}]),
        }
        head = link_hash(bytes(32), header, CHAIN_V2)
        check("v3 chain-v2 header hash", head.hex(), EXPECTED_V3_CHAIN_HEADER)
        deck_link = {"index": 0, "purpose": PURPOSE_PRIVATES_DECK, "copies": 6,
                     "population": [], "count": 54, "hidden": True, "fills": "deck",
                     "sealed": EXPECTED_V3_SEALED_DECK, "result": None, "prev": "ignored"}
        check("v3 chain-v2 hidden deck link (result null)",
              link_hash(head, deck_link, CHAIN_V2).hex(), EXPECTED_V3_CHAIN_DECK)
        deck_link["result"] = EXPECTED_V3_PRIVATES_DECK
        check("v3 chain-v2 hidden deck link (result revealed): the same",
              link_hash(head, deck_link, CHAIN_V2).hex(), EXPECTED_V3_CHAIN_DECK)

        # Every stream read above, against OpenSSL's ChaCha20, over the blocks it used.
        streams = list(_STREAM_LOG)
    finally:
        _STREAM_LOG = None
    print("== OpenSSL cross-check", file=out)
    differ = 0
    for stream in streams:
        blocks = max(1, -(-stream.used // 16))
        ours = b"".join(chacha20_block(stream.key, c, bytes(12)) for c in range(blocks))
        theirs, reason = openssl_keystream(stream.key, len(ours))
        if theirs is None:
            print("openssl cross-check skipped: %s" % reason, file=out)
            break
        if theirs != ours:
            differ += 1
            print("openssl keystream differs for key %s FAILED" % stream.key.hex(), file=out)
    else:
        print(
            "openssl keystream over the blocks each stream used: %d of %d streams match %s"
            % (len(streams) - differ, len(streams), "OK" if not differ else "FAILED"),
            file=out,
        )
    failures += differ

    failures += _selftest_exit_status(out)
    failures += _selftest_chain(out)

    if failures:
        print("SELFTEST FAILED (%d)" % failures, file=out)
        return 1
    print("SELFTEST OK", file=out)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Verify the draws of a gaugebot AuditExport (%s, %s or %s):\n"
        "check that SHA-256 of the revealed seed is the commitment and recompute\n"
        "every draw (the specification is docs/DICE.md)." % VERSIONS,
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("export", nargs="?", help="path to the AuditExport JSON file")
    parser.add_argument(
        "--witness",
        action="append",
        default=[],
        type=parse_witness,
        metavar="SEQ:HEAD",
        help="a head players saw under a report (entry number and the 12 hex digits shown; "
        "setup:HEAD for the setup's); repeatable",
    )
    parser.add_argument(
        "--selftest",
        action="store_true",
        help="check the RFC 8439 ChaCha20 vector and the fixed test vectors of both versions "
        "(printing them), and the keystreams against the openssl command if it is installed",
    )
    args = parser.parse_args(argv)  # bad arguments exit with status 2
    if args.selftest:
        return selftest()
    if args.export is None:
        parser.error("an export file is required (or --selftest)")
    try:
        with open(args.export, "r", encoding="utf-8") as handle:
            export = json.load(handle)
    except (OSError, ValueError, RecursionError) as err:
        print("cannot read %s: %s" % (args.export, err), file=sys.stderr)
        return EXIT_INVALID
    try:
        return verify_export(export, witnesses=args.witness)
    except CannotVerify as err:
        print("CANNOT VERIFY: %s" % err, file=sys.stderr)
        return EXIT_INVALID


if __name__ == "__main__":
    sys.exit(main())
