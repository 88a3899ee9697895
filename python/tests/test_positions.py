"""Positions, IDs, XGIDs and legal moves against gnubg's recorded data
(testdata/gnubg, made by gnubg 1.07 itself) and the reference docs."""

import numpy as np
import pytest

import bgkit
from conftest import rows


def board_of(row):
    opp = [int(x) for x in row["board_opp"].split()]
    me = [int(x) for x in row["board_me"].split()]
    return np.array([opp, me], dtype=np.uint8)


def test_position_ids_and_boards_are_gnubgs_both_ways():
    fixture = rows("positions.csv")
    ids = [r["position_id"] for r in fixture]
    want = np.stack([board_of(r) for r in fixture])
    # IDs to boards, one by one and as a batch.
    assert np.array_equal(bgkit.boards(ids), want)
    for r in fixture[:50]:
        assert np.array_equal(bgkit.Position.from_id(r["position_id"]).board, board_of(r))
    # Boards to IDs.
    assert bgkit.position_ids(want) == ids
    assert [bgkit.Position(b).position_id for b in want[:50]] == ids[:50]


def test_xgid_of_the_start_is_the_reference_example():
    # docs: XGID of the start position, cube centred, money game.
    start = bgkit.Position.start()
    assert start.position_id == "4HPwATDgc/ABMA"
    assert start.xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert bgkit.Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == start


def test_xgid_round_trips_every_fixture_position():
    for r in rows("positions.csv")[::7]:
        p = bgkit.Position.from_id(r["position_id"])
        assert bgkit.Position.from_xgid(p.xgid()) == p


def test_legal_moves_are_gnubgs():
    for r in rows("moves.csv"):
        p = bgkit.Position.from_id(r["position_id"])
        moves = p.legal_moves(int(r["die1"]), int(r["die2"]))
        assert len(moves) == int(r["n_moves"]), r["position_id"]
        got = sorted(m.result.position_id for m in moves)
        want = sorted(r["all_after_ids"].split())
        assert got == want, (r["position_id"], r["die1"], r["die2"])


def test_position_value_semantics():
    a = bgkit.Position.from_id("4HPwATDgc/ABMA")
    b = bgkit.Position(a.board)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.pips == (167, 167)
    assert a.swapped().swapped() == a
    assert "4HPwATDgc/ABMA" in str(a)
    assert repr(a) == "Position('4HPwATDgc/ABMA')"


@pytest.mark.parametrize(
    "bad, needle",
    [
        ("xyz", "'xyz' has 3 characters"),
        ("4HPwATDgc/AB!A", "invalid character '!'"),
        ("//////////////", "//////////////"),
    ],
)
def test_a_bad_id_raises_value_error_naming_it(bad, needle):
    with pytest.raises(ValueError, match=None) as e:
        bgkit.Position.from_id(bad)
    assert needle in str(e.value)
    with pytest.raises(ValueError) as e:
        bgkit.boards(["4HPwATDgc/ABMA", bad])
    assert "position 1" in str(e.value) and bad in str(e.value)


def test_texts_are_read_as_the_cli_reads_position():
    # gnubg 1.07 shows this XGID's position as sGfwATDgc/ABMA:sIHqABAAMAAE (turn -1:
    # the lower-case player is on roll).
    xgid = "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10"
    pid = "sGfwATDgc/ABMA"
    assert bgkit.Position(xgid).position_id == pid
    assert bgkit.Position(xgid[5:]).position_id == pid  # XGID= is optional
    assert bgkit.Position(f"{pid}:sIHqABAAMAAE").position_id == pid
    assert bgkit.Position(xgid) == bgkit.Position.from_xgid(xgid)
    assert bgkit.position_ids([xgid, f" {pid}:sIHqABAAMAAE ", "4HPwATDgc/ABMA"]) == [
        pid,
        pid,
        "4HPwATDgc/ABMA",
    ]
    with pytest.raises(ValueError) as e:
        bgkit.boards(["4HPwATDgc/ABMA", "XGID=nonsense"])
    assert "position 1" in str(e.value) and "nonsense" in str(e.value)
    with pytest.raises(ValueError, match="match ID .sIHqAB. has 6 characters"):
        bgkit.Position(f"{pid}:sIHqAB")
    # The strict constructors keep to their own form.
    with pytest.raises(ValueError):
        bgkit.Position.from_id(xgid)


def test_bad_boards_dice_and_xgids_raise_value_error():
    b = bgkit.Position.start().board
    b[0, 5] -= 1
    b[0, 0] = 1  # on the on-roll side's 24 point, which it holds
    with pytest.raises(ValueError, match="same point"):
        bgkit.Position(b)
    with pytest.raises(ValueError, match="board 1"):
        bgkit.position_ids(np.stack([bgkit.Position.start().board, b]))
    # Boards are checked 256 at a time in parallel; the first bad one is named.
    many = np.stack([bgkit.Position.start().board] * 700)
    many[650], many[300] = b, b
    with pytest.raises(ValueError, match="board 300:"):
        bgkit.position_ids(many)
    with pytest.raises(ValueError, match="shape"):
        bgkit.position_ids(np.zeros((3, 2, 24), dtype=np.uint8))
    with pytest.raises(ValueError, match="dice"):
        bgkit.Position.start().legal_moves(7, 1)
    with pytest.raises(ValueError, match="XGID"):
        bgkit.Position.from_xgid("XGID=nonsense")
    with pytest.raises(ValueError):
        bgkit.boards(42)
