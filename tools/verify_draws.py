#!/usr/bin/env python3
"""Independent verifier for gaugebot's auditable dice (gaugebot-dice-v1).

This script uses the Python 3 standard library only and its own pure-Python
ChaCha20 block function, so it shares no code with the bot. It implements the
specification in docs/DICE.md from the text alone.

Usage:
    python3 tools/verify_draws.py export.json   # verify an AuditExport file
    python3 tools/verify_draws.py --selftest    # RFC 8439 vector + fixed test vectors

Exit status: 0 when the commitment and every draw match; 1 when at least one draw
does not match (or a record is malformed); 2 when the export cannot be checked at
all (unreadable file, wrong version, seed not revealed, commitment mismatch).
"""

import argparse
import hashlib
import json
import re
import struct
import sys

VERSION = "gaugebot-dice-v1"
PURPOSE_PLAYER_ORDER = "player-order"
PURPOSE_CITY_CUBES = "city-cubes"
PURPOSE_DIVIDEND_DRAW = "dividend-draw"
COLOURS = ("white", "pink", "black")
CITIES = ("Galway", "Limerick", "Cork", "Derry", "Kilkenny", "Waterford", "Belfast", "Dublin")
HEX64 = re.compile(r"\A[0-9a-fA-F]{64}\Z")
MASK32 = 0xFFFFFFFF


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

    def next_u32(self):
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


def draw_key(seed, game_id, index, purpose):
    """SHA-256 of the domain tag, seed, game id, history index and purpose."""
    message = (
        VERSION.encode("ascii")
        + b"\x00"
        + seed
        + _length_prefixed(game_id)
        + struct.pack(">Q", index)
        + _length_prefixed(purpose)
    )
    return hashlib.sha256(message).digest()


def draw_stream(seed, game_id, index, purpose):
    return DrawStream(draw_key(seed, game_id, index, purpose))


def player_order(seed, game_id, players):
    stream = draw_stream(seed, game_id, 0, PURPOSE_PLAYER_ORDER)
    return stream.pick_without_replacement(range(1, players + 1), players)


def city_cubes(seed, game_id):
    stream = draw_stream(seed, game_id, 0, PURPOSE_CITY_CUBES)
    return stream.pick_without_replacement(range(1, 13), 8)


def dividend_draw(seed, game_id, index, supply):
    """supply: dict with integer keys white, pink, black."""
    bag = []
    for colour in COLOURS:
        bag += [colour] * supply[colour]
    stream = draw_stream(seed, game_id, index, PURPOSE_DIVIDEND_DRAW)
    return stream.pick_without_replacement(bag, min(3, len(bag)))


# --------------------------------------------------------------------------- verification


class CannotVerify(Exception):
    """The export as a whole cannot be checked."""


class BadRecord(Exception):
    """One draw record is malformed."""


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _expected_for(record, seed, game_id):
    if not isinstance(record, dict):
        raise BadRecord("record is not an object")
    index = record.get("index")
    purpose = record.get("purpose")
    if not _is_int(index) or not 0 <= index < 1 << 64:
        raise BadRecord("index is not an unsigned 64-bit integer")
    if purpose == PURPOSE_PLAYER_ORDER:
        if index != 0:
            raise BadRecord("player-order must be drawn at index 0")
        players = record.get("players")
        if not _is_int(players) or not 3 <= players <= 5:
            raise BadRecord("player-order needs players between 3 and 5")
        return player_order(seed, game_id, players)
    if purpose == PURPOSE_CITY_CUBES:
        if index != 0:
            raise BadRecord("city-cubes must be drawn at index 0")
        return city_cubes(seed, game_id)
    if purpose == PURPOSE_DIVIDEND_DRAW:
        supply = record.get("supply")
        if not isinstance(supply, dict) or not all(
            _is_int(supply.get(c)) and 0 <= supply.get(c) <= 255 for c in COLOURS
        ):
            raise BadRecord("dividend-draw needs a supply of white, pink and black counts 0..=255")
        return dividend_draw(seed, game_id, index, supply)
    raise BadRecord("unknown purpose %r" % (purpose,))


def _same(expected, recorded):
    if not isinstance(recorded, list) or len(recorded) != len(expected):
        return False
    for e, r in zip(expected, recorded):
        if type(e) is not type(r) or e != r:
            return False
    return True


def _fmt(value):
    return json.dumps(value, separators=(",", ":"))


def verify_export(export, out=sys.stdout):
    """Print one line per draw and a summary; return the exit status."""
    if not isinstance(export, dict):
        raise CannotVerify("the export is not a JSON object")
    version = export.get("version")
    if version != VERSION:
        raise CannotVerify("unsupported version %r (expected %r)" % (version, VERSION))
    game_id = export.get("game_id")
    commitment = export.get("commitment")
    seed_hex = export.get("seed")
    draws = export.get("draws")
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
    if actual != commitment.lower():
        raise CannotVerify(
            "commitment mismatch: sha256(seed) = %s but the commitment is %s" % (actual, commitment)
        )
    print("game %s: commitment %s matches the revealed seed" % (game_id, actual), file=out)

    ok = mismatched = malformed = 0
    for position, record in enumerate(draws):
        label = "#%d" % position
        if isinstance(record, dict):
            label = "#%d index=%s %s" % (position, record.get("index"), record.get("purpose"))
        try:
            expected = _expected_for(record, seed, game_id)
        except BadRecord as err:
            malformed += 1
            print("ERROR    %s: %s" % (label, err), file=out)
            continue
        recorded = record.get("result")
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
    print(
        "summary: %d draws, %d OK, %d mismatched, %d malformed" % (total, ok, mismatched, malformed),
        file=out,
    )
    if mismatched or malformed:
        print("VERIFICATION FAILED", file=out)
        return 1
    print("ALL DRAWS VERIFIED", file=out)
    return 0


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


def selftest(out=sys.stdout):
    failures = 0

    def check(name, actual, expected):
        nonlocal failures
        if actual == expected:
            status = "OK"
        else:
            status = "FAILED, expected %r" % (expected,)
            failures += 1
        print("%-40s %s %s" % (name, actual, status), file=out)

    # RFC 8439 section 2.3.2 block function test vector.
    block = chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))
    check(
        "rfc8439 2.3.2 block",
        block.hex(),
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
    )

    seed = bytes.fromhex(TEST_SEED_HEX)
    print("seed      %s" % TEST_SEED_HEX, file=out)
    print("game id   %s" % TEST_GAME_ID, file=out)
    check("commitment", hashlib.sha256(seed).hexdigest(), EXPECTED_COMMITMENT)
    check(
        "draw key player-order index 0",
        draw_key(seed, TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER).hex(),
        EXPECTED_KEY_PLAYER_ORDER,
    )
    check(
        "draw key city-cubes index 0",
        draw_key(seed, TEST_GAME_ID, 0, PURPOSE_CITY_CUBES).hex(),
        EXPECTED_KEY_CITY_CUBES,
    )
    check(
        "draw key dividend-draw index 12",
        draw_key(seed, TEST_GAME_ID, TEST_DIVIDEND_INDEX, PURPOSE_DIVIDEND_DRAW).hex(),
        EXPECTED_KEY_DIVIDEND,
    )
    stream = draw_stream(seed, TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER)
    check("player-order stream first 4 words", [stream.next_u32() for _ in range(4)], EXPECTED_WORDS)
    stream = draw_stream(seed, TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER)
    check(
        "player-order stream uniform(2^31+1) x4",
        [stream.uniform(REJECTION_BOUND) for _ in range(4)],
        EXPECTED_REJECTION,
    )
    for players in (3, 4, 5):
        check(
            "player-order players=%d" % players,
            player_order(seed, TEST_GAME_ID, players),
            EXPECTED_PLAYER_ORDER.get(players),
        )
    check("city-cubes", city_cubes(seed, TEST_GAME_ID), EXPECTED_CITY_CUBES)
    check(
        "dividend-draw index 12 supply 7/8/7",
        dividend_draw(seed, TEST_GAME_ID, TEST_DIVIDEND_INDEX, TEST_SUPPLY),
        EXPECTED_DIVIDEND,
    )
    if failures:
        print("SELFTEST FAILED (%d)" % failures, file=out)
        return 1
    print("SELFTEST OK", file=out)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Verify the draws of a gaugebot AuditExport (gaugebot-dice-v1)."
    )
    parser.add_argument("export", nargs="?", help="path to the AuditExport JSON file")
    parser.add_argument(
        "--selftest",
        action="store_true",
        help="check the RFC 8439 ChaCha20 vector and print the fixed test vectors",
    )
    args = parser.parse_args(argv)
    if args.selftest:
        return selftest()
    if args.export is None:
        parser.error("an export file is required (or --selftest)")
    try:
        with open(args.export, "r", encoding="utf-8") as handle:
            export = json.load(handle)
    except (OSError, ValueError) as err:
        print("cannot read %s: %s" % (args.export, err), file=sys.stderr)
        return 2
    try:
        return verify_export(export)
    except CannotVerify as err:
        print("CANNOT VERIFY: %s" % err, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
