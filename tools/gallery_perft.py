#!/usr/bin/env python3
"""Perft counts for the five small designs of Henka's gallery of open rules (blast, push, swap,
crowd and double-move shogi, docs/rules/<name>.md), from a generator written for these tests
alone: plain Python, standard library only, sharing no code with Henka's rules kit, so the counts
test the kit instead of repeating it.

    python3 tools/gallery_perft.py blast-shogi > host/tests/perft/blast-shogi.perft
    python3 tools/gallery_perft.py push-shogi > host/tests/perft/push-shogi.perft
    python3 tools/gallery_perft.py swap-shogi > host/tests/perft/swap-shogi.perft
    python3 tools/gallery_perft.py crowd-shogi > host/tests/perft/crowd-shogi.perft
    python3 tools/gallery_perft.py double-move-shogi > host/tests/perft/double-move-shogi.perft
    python3 tools/gallery_perft.py --check [name ...]   # recompute, diff against the committed files
    python3 tools/gallery_perft.py --self-test          # the hand-checked positions below only
    python3 tools/gallery_perft.py --divide blast-shogi "rbsgk/4p/5/P4/KGSBR b - 1" 3

`--divide` prints every legal move (USI style, `5e4d`) with its count one ply shorter, to chase a
difference with Henka's divide (the editor's perft panel) down the tree.

The generator is meant to be obviously right rather than fast: a board is a list of 25 cells, a
move copies it, and a move is legal when no enemy piece has a move (by the same move generator,
ignoring that enemy's own King) capturing on the mover's King cell afterwards. Every design shares
the six plain pieces; each adds one rule, and the code says which with `design == ...` in the few
places it matters. Positions are Henka's strings: ranks from the top (rank a, White's side) joined
by `/`, cells from Black's left (file 5) to right (file 1), digits for empty cells, capitals for
Black, who moves first and "up" toward rank a; then `b`/`w`, hands `-` (these designs have no
drops) and the move number.

The plain part (design `plain` here: the six pieces, one move a turn) was compared once with
Fairy-Stockfish 0.0.90 on a 5x5 variant defined for it without drops or promotion: perft 1-4 of the
start (14, 181, 2460, 32749) and the legal moves of 17,523 positions of random games, 1,446 of them in
check, agreed. Fairy-Stockfish's own blast rule (atomic chess's) differs from blast shogi's, so it
checks nothing more. The hand-checked positions of `self_test` run before every generation.
"""

import sys
import time

SIZE = 5
RANKS = "abcde"

# Directions as (forward, right) in the mover's own frame: forward is toward rank a for Black and
# toward rank e for White; White's directions are Black's turned round (see `step`).
ORTH = ((1, 0), (-1, 0), (0, -1), (0, 1))
DIAG = ((1, -1), (1, 1), (-1, -1), (-1, 1))
EIGHT = ORTH + DIAG
STEPPERS = {
    "K": EIGHT,                       # King: one step any way (royal)
    "G": ORTH + ((1, -1), (1, 1)),    # Gold: orthogonal, or diagonally forward
    "S": DIAG + ((1, 0),),            # Silver: diagonal, or straight forward
    "P": ((1, 0),),                   # Pawn: straight forward
    "X": EIGHT,                       # Changer (swap-shogi): as a King, and swaps with friends
}
SLIDERS = {"R": ORTH, "B": DIAG}
# The Pusher (U, push-shogi) and the Crowd (C, crowd-shogi) are handled by name below.

# Each design: its start, and the piece types its positions may hold.
DESIGNS = {
    "blast-shogi": ("rbsgk/4p/5/P4/KGSBR b - 1", "KGSRBP"),
    "push-shogi": ("rbugk/4p/5/P4/KGUBR b - 1", "KGURBP"),
    "swap-shogi": ("rbxgk/4p/5/P4/KGXBR b - 1", "KGXRBP"),
    "crowd-shogi": ("rbcgk/4p/5/P4/KGCBR b - 1", "KGCRBP"),
    "double-move-shogi": ("rbsgk/4p/5/P4/KGSBR b - 1", "KGSRBP"),
    # Not a gallery design: the plain rules every design starts from (minishogi's pieces, no drops,
    # no promotion, one move a turn), for the self-checks and the comparison with Fairy-Stockfish.
    "plain": ("rbsgk/4p/5/P4/KGSBR b - 1", "KGSRBP"),
}


# --- Positions ------------------------------------------------------------------------------

def owner(piece):
    return "b" if piece.isupper() else "w"


def other(side):
    return "w" if side == "b" else "b"


def parse(design, text):
    """Henka's position string -> (board, side, move number). Refuses what these tests never use."""
    fields = text.split()
    if len(fields) != 4:
        raise ValueError(f"{text!r}: expected board, side, hands and move number")
    board_text, side, hands, number = fields
    types = DESIGNS[design][1]
    rows = board_text.split("/")
    if len(rows) != SIZE:
        raise ValueError(f"{text!r}: {len(rows)} ranks")
    board = []
    for row in rows:
        cells, digits = [], ""
        for ch in row + "/":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                cells.extend([None] * int(digits))
                digits = ""
            if ch == "/":
                break
            if ch.upper() not in types:
                raise ValueError(f"{text!r}: {ch!r} is no piece of {design}")
            cells.append(ch)
        if len(cells) != SIZE:
            raise ValueError(f"{text!r}: rank {row!r} has {len(cells)} cells")
        board.extend(cells)
    if side not in ("b", "w") or hands != "-" or int(number) < 1:
        raise ValueError(f"{text!r}: bad side, hands or move number")
    if board.count("K") != 1 or board.count("k") != 1:
        raise ValueError(f"{text!r}: each side needs exactly one King")
    if king_attacked(design, board, other(side)):
        raise ValueError(f"{text!r}: the side not to move is in check")
    return board, side, int(number)


def unparse(board, side, number):
    rows = []
    for r in range(SIZE):
        row, empty = "", 0
        for c in range(SIZE):
            piece = board[r * SIZE + c]
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        if empty:
            row += str(empty)
        rows.append(row)
    return f"{'/'.join(rows)} {side} - {number}"


def cell_name(i):
    r, c = divmod(i, SIZE)
    return f"{SIZE - c}{RANKS[r]}"


def step(i, side, forward, right):
    """The cell one (forward, right) step from cell i for side, or None off the board."""
    r, c = divmod(i, SIZE)
    r += -forward if side == "b" else forward
    c += right if side == "b" else -right
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return r * SIZE + c
    return None


def neighbours(i):
    """The (up to 8) cells around cell i."""
    return [n for d in EIGHT if (n := step(i, "b", *d)) is not None]


# --- Moves ------------------------------------------------------------------------------------

def piece_moves(design, board, i):
    """The pseudo-legal moves of the piece on cell i: (to, kind) with kind 'move' (to an empty
    cell), 'capture' (of an enemy), 'swap' (Changer with a friend) or 'push' (Pusher)."""
    piece = board[i]
    side = owner(piece)
    kind = piece.upper()
    out = []

    def land(to):
        """A step or the end of a slide onto `to`: True when a slide may go on past it."""
        target = board[to]
        if target is None:
            out.append((to, "move"))
            return True
        if owner(target) != side:
            out.append((to, "capture"))
        elif kind == "X":
            out.append((to, "swap"))
        return False

    if kind in STEPPERS:
        for d in STEPPERS[kind]:
            to = step(i, side, *d)
            if to is not None:
                land(to)
    elif kind in SLIDERS:
        for d in SLIDERS[kind]:
            to = step(i, side, *d)
            while to is not None and land(to):
                to = step(to, side, *d)
    elif kind == "C":
        # The Crowd: orthogonal slides of at most N cells, N = friends on the 8 cells around it.
        crowd = sum(1 for n in neighbours(i) if board[n] is not None and owner(board[n]) == side)
        for d in ORTH:
            to, left = step(i, side, *d), crowd
            while to is not None and left > 0 and land(to):
                to, left = step(to, side, *d), left - 1
    elif kind == "U":
        # The Pusher: one orthogonal step to an empty cell, or onto a piece (either side's, never a
        # King) that it pushes one cell further on, which must be empty or off the board.
        for d in ORTH:
            to = step(i, side, *d)
            if to is None:
                continue
            if board[to] is None:
                out.append((to, "move"))
            elif board[to].upper() != "K":
                beyond = step(to, side, *d)
                if beyond is None or board[beyond] is None:
                    out.append((to, "push"))
    else:
        raise ValueError(f"unknown piece {piece!r}")
    return out


def make(design, board, i, to, kind):
    """The board after the piece on i makes the move (to, kind), with all of its effects."""
    b = list(board)
    piece = b[i]
    if kind == "swap":
        b[i], b[to] = b[to], b[i]
        return b
    if kind == "push":
        r, c = divmod(i, SIZE)
        r2, c2 = divmod(to, SIZE)
        r3, c3 = 2 * r2 - r, 2 * c2 - c  # one cell further in the same direction
        if 0 <= r3 < SIZE and 0 <= c3 < SIZE:
            b[r3 * SIZE + c3] = b[to]
        # (off the board, the pushed piece is simply gone)
    b[to] = piece
    b[i] = None
    if kind == "capture" and design == "blast-shogi":
        for n in neighbours(to):
            if b[n] is not None and b[n].upper() != "K":
                b[n] = None
        if piece.upper() != "K":
            b[to] = None
    return b


def king_attacked(design, board, side):
    """Whether some enemy piece of `side` has a move capturing on side's King cell."""
    king = board.index("K" if side == "b" else "k")
    for i, piece in enumerate(board):
        if piece is not None and owner(piece) != side:
            for to, kind in piece_moves(design, board, i):
                if to == king and kind == "capture":
                    return True
    return False


def legal_moves(design, board, side):
    """[(name, board after)] for every legal move of side."""
    out = []
    for i, piece in enumerate(board):
        if piece is None or owner(piece) != side:
            continue
        for to, kind in piece_moves(design, board, i):
            after = make(design, board, i, to, kind)
            if not king_attacked(design, after, side):
                out.append((cell_name(i) + cell_name(to), after))
    return out


# --- Perft ------------------------------------------------------------------------------------

def children(design, board, side, left):
    """[(name, board, side to move, moves left in its turn)] after each legal move. `left` is how
    many moves the side to move may still make in this turn, this one included (always 1 but in
    double-move shogi)."""
    out = []
    for name, after in legal_moves(design, board, side):
        if left == 2 and not king_attacked(design, after, other(side)):
            out.append((name, after, side, 1))       # double-move: the second move of the turn
        else:
            out.append((name, after, other(side), 2 if design == "double-move-shogi" else 1))
    return out


def first_turn(design, number):
    """Moves in the turn a position starts: double-move shogi's first turn of the game is one."""
    return 2 if design == "double-move-shogi" and number != 1 else 1


def perft(design, board, side, left, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return len(legal_moves(design, board, side))
    return sum(perft(design, b, s, l, depth - 1) for _, b, s, l in children(design, board, side, left))


def perft_position(design, text, depth):
    board, side, number = parse(design, text)
    return perft(design, board, side, first_turn(design, number), depth)


def divide(design, text, depth):
    board, side, number = parse(design, text)
    total = 0
    for name, b, s, l in sorted(children(design, board, side, first_turn(design, number))):
        n = perft(design, b, s, l, depth - 1)
        total += n
        print(f"{name} {n}")
    print(f"total {total}")


# --- The hand-checked positions ---------------------------------------------------------------

def moves_of(design, text):
    board, side, number = parse(design, text)
    return sorted(name for name, *_ in children(design, board, side, first_turn(design, number)))


def self_test():
    # Every position of every suite reads and writes back to the same string.
    for design, (_, cases) in SUITES.items():
        for _, pos, _, _ in cases:
            text = DESIGNS[design][0] if pos == "startpos" else pos
            assert unparse(*parse(design, text)) == text, text

    # Plain rules. Kings alone on 5e and 1a: the Black King has 3 moves (5d, 4d, 4e).
    assert moves_of("plain", "4k/5/5/5/K4 b - 1") == ["5e4d", "5e4e", "5e5d"]
    # The start, 14 moves (minishogi's first count, no promotion being possible yet): Pawn 5c;
    # Gold 4d, 3d; Silver 4d, 3d, 2d; Bishop 3d, 4c, 5b, 1d; Rook 1d, 1c, 1b (takes the Pawn);
    # King 4d.
    start = moves_of("plain", DESIGNS["plain"][0])
    assert start == sorted(["5d5c", "4e4d", "4e3d", "3e4d", "3e3d", "3e2d", "2e3d", "2e4c", "2e5b",
                            "2e1d", "1e1d", "1e1c", "1e1b", "5e4d"]), start
    # A pin: Black's Silver on 5d stands between its King on 5e and White's Rook on 5a. Only its
    # straight step 5c keeps the file closed (4c and 4e would open it); the King has 4d and 4e.
    assert moves_of("plain", "r3k/5/5/S4/K4 b - 1") == ["5d5c", "5e4d", "5e4e"]

    # Blast. Black's Rook 1e takes White's Pawn on 1b. The blast around 1b removes White's Gold
    # on 2b and Black's own Silver on 2c but not White's King on 2a; the Rook goes too.
    board, side, _ = parse("blast-shogi", "3k1/3gp/3S1/5/K3R b - 1")
    after = dict(legal_moves("blast-shogi", board, side))["1e1b"]
    assert unparse(after, "w", 1) == "3k1/5/5/5/K4 w - 1", unparse(after, "w", 1)
    # A blast may not open a line to the own King. White's Pawn on 5c shields Black's King on 5e
    # from White's Rook on 5a. Taking that Pawn with the Gold (4c) blasts Black's Silver on 5d,
    # and taking it with the Silver (5d) removes the Silver itself: either way the file opens, so
    # neither capture is legal. Left: Gold 5b, 4b, 3b, 3c, 4d; Silver 4e (the Pawn still
    # shields); King 4d, 4e. 8 moves.
    moves = moves_of("blast-shogi", "r3k/5/pG3/S4/K4 b - 1")
    assert moves == ["4c3b", "4c3c", "4c4b", "4c4d", "4c5b", "5d4e", "5e4d", "5e4e"], moves
    # A King's capture: Black's King on 3d takes the Pawn on 4c and stays; the blast clears
    # White's Gold on 3b and Black's own Silver on 5d.
    board, side, _ = parse("blast-shogi", "4k/2g2/1p3/S1K2/5 b - 1")
    after = dict(legal_moves("blast-shogi", board, side))["3d4c"]
    assert unparse(after, "w", 1) == "4k/5/1K3/5/5 w - 1", unparse(after, "w", 1)

    # Push. The Pusher on 3c: up, it pushes White's Gold from 3b to 3a; left, Black's own Pawn
    # from 4c to 5c; right (2c) and down (3d) it steps to empty cells.
    board, side, _ = parse("push-shogi", "k4/2g2/1PU2/5/4K b - 1")
    pusher = {name: unparse(b, "w", 1) for name, b in legal_moves("push-shogi", board, side)
              if name.startswith("3c")}
    assert pusher == {"3c3b": "k1g2/2U2/1P3/5/4K w - 1", "3c4c": "k4/2g2/PU3/5/4K w - 1",
                      "3c2c": "k4/2g2/1P1U1/5/4K w - 1", "3c3d": "k4/2g2/1P3/2U2/4K w - 1"}, pusher
    # Off the board: the Pusher on 5b pushes White's Rook on 5a off the board; it cannot push
    # White's King on 4b; down, 5c is empty. 2 moves.
    board, side, _ = parse("push-shogi", "r4/Uk3/5/5/4K b - 1")
    pusher = {name: unparse(b, "w", 1) for name, b in legal_moves("push-shogi", board, side)
              if name.startswith("5b")}
    assert pusher == {"5b5a": "U4/1k3/5/5/4K w - 1", "5b5c": "r4/1k3/U4/5/4K w - 1"}, pusher
    # Blocked: the Pusher on 3d faces its Gold on 3c with White's Pawn on 3b behind: no push up.
    assert not any(m.startswith("3d3c") for m in moves_of("push-shogi", "k4/2p2/2G2/2U2/4K b - 1"))
    # A Pusher next to a King gives no check.
    assert not king_attacked("push-shogi", parse("push-shogi", "1kU2/5/5/5/4K w - 1")[0], "w")

    # Swap. The Changer on 4d: to the empty 5c, 4c, 3c, 5d, 3d, 4e, and swaps with its King on 5e
    # (the King lands on 4d, safe) and its Gold on 3e. 8 moves.
    moves = [m for m in moves_of("swap-shogi", "4k/5/5/1X3/K1G2 b - 1") if m.startswith("4d")]
    assert moves == ["4d3c", "4d3d", "4d3e", "4d4c", "4d4e", "4d5c", "4d5d", "4d5e"], moves
    # Swapping the King into attack: White's Rook on 4a sees down file 4 to the Changer on 4d, so
    # the swap 4d5e (King to 4d) is illegal. The King itself never swaps: 5d and 4e only.
    moves = moves_of("swap-shogi", "1r2k/5/5/1X3/K4 b - 1")
    assert "4d5e" not in moves and "5e4d" not in moves and "5e5d" in moves and "5e4e" in moves, moves
    # The Changer attacks its 8 neighbours: from 2b it checks White's King on 1a.
    assert king_attacked("swap-shogi", parse("swap-shogi", "4k/3X1/5/5/K4 w - 1")[0], "w")

    # Crowd. Alone (N = 0), the Crowd cannot move; with its King beside it (N = 1), it steps one
    # cell each way; with the King and a Pawn (N = 2), up to two: 3b 3a, 3d 3e, 4c 5c, 2c 1c.
    assert not any(m.startswith("3c") for m in moves_of("crowd-shogi", "k4/5/2C2/5/4K b - 1"))
    moves = [m for m in moves_of("crowd-shogi", "k4/5/2C2/3K1/5 b - 1") if m.startswith("3c")]
    assert moves == ["3c2c", "3c3b", "3c3d", "3c4c"], moves
    moves = [m for m in moves_of("crowd-shogi", "k4/5/2C2/1P1K1/5 b - 1") if m.startswith("3c")]
    assert moves == ["3c1c", "3c2c", "3c3a", "3c3b", "3c3d", "3c3e", "3c4c", "3c5c"], moves
    # Its reach is its attack: with N = 2 it checks White's King two cells up; with N = 1 not.
    assert king_attacked("crowd-shogi", parse("crowd-shogi", "2k2/5/2C2/1P1K1/5 w - 1")[0], "w")
    assert not king_attacked("crowd-shogi", parse("crowd-shogi", "2k2/5/2C2/3K1/5 w - 1")[0], "w")

    # Double move. Move number 1: one move (the game's first turn), so depth 2 is the plain count.
    assert perft_position("double-move-shogi", "4k/5/5/5/K4 b - 1", 2) == 3 * 3
    # Move number 5: two moves. Black's King 5e goes to 5d, 4d or 4e and moves again from there:
    # 5 + 8 + 5 = 18 sequences.
    assert perft_position("double-move-shogi", "4k/5/5/5/K4 b - 5", 2) == 18
    # A check ends the turn: Black's Rook 5c to 1c checks White's King on 1a (White moves next);
    # 5c2c gives none (Black moves again).
    board, side, _ = parse("double-move-shogi", "4k/5/R4/5/K4 b - 5")
    kids = {n: (s, l) for n, _, s, l in children("double-move-shogi", board, side, 2)}
    assert kids["5c1c"] == ("w", 2) and kids["5c2c"] == ("b", 1), kids
    # Mate in one turn: 3c3b (no check: Black moves again), 5a2a (check, defended by the Gold):
    # White's King has no flight (its own Pawns on 2b and 1b) and nothing takes the Rook.
    board, side, _ = parse("double-move-shogi", "R2pk/3pp/2G2/b4/3K1 b - 5")
    kids = {n: (b, s, l) for n, b, s, l in children("double-move-shogi", board, side, 2)}
    b, s, l = kids["3c3b"]
    assert (s, l) == ("b", 1)
    b, s, l = {n: (b2, s2, l2) for n, b2, s2, l2 in children("double-move-shogi", b, s, l)}["5a2a"]
    assert (s, l) == ("w", 2) and legal_moves("double-move-shogi", b, s) == []
    # The first move 5a2a at once gives check and ends the turn; White's King takes the Rook.
    b, s, l = kids["5a2a"]
    assert (s, l) == ("w", 2) and "1a2a" in [n for n, _ in legal_moves("double-move-shogi", b, s)]
    # A pin on the second move: after 3e2d the Gold on 3c stands between the King on 2d and the
    # Bishop on 5a, so of its six steps only 3c4b (along that diagonal) is left.
    board, side, _ = parse("double-move-shogi", "b1r1k/5/2G2/5/1SK1B b - 5")
    kids = {n: (b, s, l) for n, b, s, l in children("double-move-shogi", board, side, 2)}
    b, s, l = kids["3e2d"]
    assert [n for n, *_ in children("double-move-shogi", b, s, l) if n.startswith("3c")] == ["3c4b"]


# --- The suites -------------------------------------------------------------------------------

# For each design: (header lines, [(id, position or "startpos", deepest depth, comment)]).
SUITES = {
    "blast-shogi": ([], [
        ("startpos", "startpos", 5,
         "The start (minishogi's array). 1e1b takes the Pawn: the Rook goes, and the blast removes White's Gold on 2a but not its King."),
        ("crowded_centre", "2r1k/1gps1/1PbG1/1SPB1/K2R1 b - 1", 5,
         "A crowded centre: most captures blast several pieces of both sides (4d3c clears all seven pieces around 3c)."),
        ("blast_may_not_open_own_king", "r2kb/5/p1S2/SG3/K3R b - 1", 6,
         "Taking the Pawn on 5c (4d5c or 5d5c) would blast away the pieces shielding Black's King on 5e from the Rook on 5a: illegal."),
        ("king_captures_and_stays", "1s1k1/2p2/1pgb1/1SK2/4R b - 1", 6,
         "Black's King, in check from the Bishop on 2c, takes the Pawn, Gold or Bishop beside it and stays; its blast clears its own Silver too. 4d3c also escapes: its blast removes the Bishop."),
        ("blast_removes_the_checker", "rbsk1/5/1B3/P4/KGS2 w - 1", 6,
         "White, in check from the Bishop on 4c, escapes with 5a5d: the blast around 5d removes the Bishop (and Black's Gold, not its King)."),
    ]),
    "push-shogi": ([], [
        ("startpos", "startpos", 5,
         "The start: each Pusher's sideways pushes are blocked (a King or a Rook behind the piece), so it can only step forward."),
        ("pusher_shields_its_king", "r2gk/Up1u1/5/1P2G/K1R2 b - 1", 5,
         "The Pusher on 5b shields its King from the Rook on 5a: it pushes the Rook off the board (5b5a) or steps down the file, but pushing the Pawn on 4b (5b4b) would open the file."),
        ("pushes_open_lines", "2k1r/1Up2/2R1G/1Ug2/u3K b - 1", 5,
         "4b3b pushes White's Pawn aside and opens file 3 onto White's King (check, legal); 4d3d would push White's Gold to 2d, attacking Black's King (illegal)."),
        ("push_the_checker_away", "2k2/1rU2/5/2G1u/1K3 b - 1", 6,
         "Black, in check from the Rook on 4b, escapes by pushing it to 5b (3b4b); no Pusher pushes a King, and a Pusher gives no check."),
        ("pushes_off_every_edge", "1k2g/p3U/uP1Up/5/G2K1 b - 1", 5,
         "Pushes off the top (1b1a) and the side (2c1c), pushes of friends (White's 5c5b pushes its Pawn to 5a) and of enemies."),
    ]),
    "swap-shogi": ([], [
        ("startpos", "startpos", 5,
         "The start: each Changer may swap with its Gold or Bishop (3e4e, 3e2e) or step forward."),
        ("swap_out_of_check", "r3k/3x1/2b2/5/KX3 b - 1", 6,
         "Black's King on 5e, in check from the Rook on 5a, has one move: the Changer's swap 4e5e (King to 4e, Changer blocks on 5e)."),
        ("changer_among_enemies", "2k1r/1x1b1/2X2/1pG2/K3R b - 1", 5,
         "Black's Changer on 3c has all eight moves: three captures, the swap with its Gold, and steps (3b gives check)."),
        ("pinned_changer", "r3k/1g3/5/X1x2/K2B1 b - 1", 6,
         "Black's Changer on 5d is pinned by the Rook on 5a: a swap with its King (5d5e) would leave the King on the file; only 5c is legal."),
        ("white_swaps_with_its_king", "2k1r/2gx1/5/1X3/K3B w - 1", 5,
         "White to move: its Changer on 2b swaps with its Rook, King or Gold (2b1a, 2b3a, 2b3b) or steps."),
    ]),
    "crowd-shogi": ([], [
        ("startpos", "startpos", 5,
         "The start: each Crowd has two friends beside it (Gold and Bishop), so it slides up to two cells: 3e3d, 3e3c."),
        ("crowd_of_four", "1k2c/3g1/5/1P1P1/1BCK1 b - 1", 5,
         "Black's Crowd on 3e has four friends beside it and slides the whole file to 3a; White's Crowd on 1a has one and steps."),
        ("crowd_joins_to_check", "k4/5/C1R1c/G4/2g1K b - 1", 6,
         "Black's Crowd on 5c has one friend; 3c4c makes it two and the Crowd checks White's King two cells up. White's Crowd, alone, cannot move."),
        ("crowd_interposes", "2k2/1gpb1/1G1P1/2C2/K4 b - 1", 6,
         "Black, in check from the Bishop on 2b, may block with the Crowd (range 2: 3d3c, 3d4d)."),
        ("crowd_capture_checks", "2k2/2p2/1P1P1/2Cg1/K2c1 b - 1", 6,
         "The Crowd (range 2) takes the Pawn on 3b and checks White's King from there; 3d2d takes the only friend of White's Crowd on 2e."),
    ]),
    "double-move-shogi": ([
        "A turn is two moves (two plies); the game's first turn is one, and a move that gives check ends",
        "its turn. Every position below is at the start of a turn: one move if its move number is 1, else two.",
    ], [
        ("startpos", "startpos", 5,
         "The start, move number 1: the first turn is one move, White's reply two."),
        ("start_array_later_turn", "rbsgk/4p/5/P4/KGSBR b - 5", 5,
         "The same array at move number 5: Black's turn is two moves."),
        ("checks_end_the_turn", "2k2/5/1R3/5/K1B2 b - 5", 6,
         "Four first moves give check (4c4a, 4c3c, 3e5c, 3e1c) and end the turn; the other eleven are followed by a second move."),
        ("checks_in_the_first_turn", "2k2/5/1R3/5/K1B2 b - 1", 7,
         "The same position at move number 1: one move, check or not."),
        ("mate_in_one_turn", "R2pk/3pp/2G2/b4/3K1 b - 5", 6,
         "3c3b then 5a2a mates (the Gold guards the Rook); 5a2a at once is check and ends the turn, and the King takes back."),
        ("pins_on_the_second_move", "b1r1k/5/2G2/5/1SK1B b - 5", 6,
         "The Gold on 3c is pinned on file 3; after 3e2d it is pinned on the Bishop's diagonal instead, and its only second move is 3c4b."),
    ]),
}


def suite_text(design, out):
    notes, cases = SUITES[design]
    start = DESIGNS[design][0]
    out(f"# {design} perft suite. Every count comes from tools/gallery_perft.py {design},")
    out("# an independent generator written for this test in plain Python that shares no code with")
    out(f"# Henka's rules kit; Henka's script must reproduce them. Rules: docs/rules/{design}.md.")
    out(f"# Start: {start}. Positions in Henka's notation (Black = uppercase, moves first).")
    for line in notes:
        out(f"# {line}")
    for case_id, pos, depth, comment in cases:
        text = start if pos == "startpos" else pos
        out("")
        out(f"# {comment}")
        out(f"id {case_id}")
        out(f"position {pos}")
        for d in range(1, depth + 1):
            out(f"perft {d} {perft_position(design, text, d)}")


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        print("self-test passed")
        return 0
    if argv[:1] == ["--divide"] and len(argv) == 4:
        self_test()
        divide(argv[1], argv[2], int(argv[3]))
        return 0
    if argv[:1] == ["--check"]:
        self_test()
        failed = 0
        for design in argv[1:] or list(SUITES):
            began = time.time()
            lines = []
            suite_text(design, lines.append)
            path = f"host/tests/perft/{design}.perft"
            with open(path, encoding="utf-8") as f:
                committed = f.read().splitlines()
            same = lines == committed
            failed += not same
            print(f"{design}: {'same' if same else 'DIFFERS'} ({time.time() - began:.0f} s)", flush=True)
            if not same:
                import difflib
                sys.stdout.writelines(difflib.unified_diff(
                    [l + "\n" for l in committed], [l + "\n" for l in lines], path, "recomputed"))
        return 1 if failed else 0
    if len(argv) == 1 and argv[0] in SUITES:
        self_test()
        suite_text(argv[0], lambda line: print(line, flush=True))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
