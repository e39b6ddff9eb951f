#!/usr/bin/env python3
"""How good are an engine's moves, as a stronger engine judges them? A quicker, steadier measure of
an AI change than whole games: the same positions, taken from game records, are given to each
engine version to choose a move, and Fairy-Stockfish (FSF) judges every choice at a fixed node
count. A move's loss is FSF's score before it less its score after it (from the mover's side,
between 0 and 600 centipawns); only positions FSF calls open (within ±600 before the move) count,
since in a decided game the choice of win matters little. Versions are compared move for move on
the same positions, so what the positions cost all versions alike cancels out.

    tools/fsf_move_quality.py positions --out set.json records/*.henka
    tools/fsf_move_quality.py pick --positions set.json --out base.json \\
        --engine "target/release/henka usi shogi"
    XDG_CACHE_HOME=/tmp/other tools/fsf_move_quality.py pick --positions set.json --out other.json \\
        --engine "target/release/henka usi shogi"
    tools/fsf_move_quality.py compare base.json other.json

`positions` judges every position once (FSF at --nodes), `pick` runs any USI engine on them
(options after `;`, as `henka match` takes them: "fairy-stockfish;Skill Level=10"), and `compare`
judges the picked moves (verdicts are cached in the positions file, so a move two versions both
chose is judged once) and prints each version's mean loss, its count of moves losing 300 or more,
and its difference from the first file with a 95 % interval. docs/ai-strength.md (round 27) has
the figures that calibrate it: a quarter of the thinking time, four times the time, FSF at
`Skill Level` 10.

Only the Python standard library is used.
"""

import argparse
import json
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsf_blunders import Engine, read_record  # noqa: E402

# A move loses at most this much: past it the game is decided and a bigger loss says no more.
LOSS_CAP = 600
# Positions FSF scores beyond this either way are left out: the game is decided there.
OPEN = 600
# Debian installs the engine under /usr/games, which is not on every PATH.
JUDGE = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


class Picker:
    """Any USI engine, asked for its move in each position with a fresh game."""

    def __init__(self, spec, variant):
        command, *options = spec.split(";")
        # The judge's driver names the variant (Fairy-Stockfish needs it; Henka ignores it).
        self.engine = Engine(command, variant)
        for option in options:
            name, _, value = option.partition("=")
            self.engine.send(f"setoption name {name.strip()} value {value.strip()}")
        self.engine.send("isready")
        self.engine.until("readyok")

    def pick(self, start, moves, go):
        self.engine.send("usinewgame")
        return self.engine.search(start, moves, go)[1]

    def quit(self):
        self.engine.quit()


def key(start, moves):
    return start + "|" + " ".join(moves)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def positions(args):
    judge = Engine(args.judge, args.variant)
    verdicts = {}
    chosen = []
    for path in args.records:
        start, moves, _, _ = read_record(path)
        if not start:
            continue
        for i in range(args.skip, max(args.skip, len(moves) - args.tail), args.every):
            judge.send("usinewgame")
            score, _ = judge.judge(start, moves[:i], args.nodes)
            verdicts[key(start, moves[:i])] = score
            if score is not None and abs(score) <= OPEN:
                chosen.append([start, moves[:i]])
    judge.quit()
    save(args.out, {"variant": args.variant, "nodes": args.nodes, "positions": chosen, "verdicts": verdicts})
    print(f"{len(chosen)} open positions of {len(verdicts)} judged, from {len(args.records)} records")


def pick(args):
    data = load(args.positions)
    if not data["positions"]:
        sys.exit(f"{args.positions} holds no open position to pick in")
    engine = Picker(args.engine, data["variant"])
    picks = [engine.pick(start, moves, args.go) for start, moves in data["positions"]]
    engine.quit()
    save(args.out, {"engine": args.engine, "go": args.go, "positions": args.positions, "moves": picks})
    print(f"{len(picks)} moves picked")


def compare(args):
    runs = [load(p) for p in args.picks]
    set_path = runs[0]["positions"]
    if any(r["positions"] != set_path for r in runs):
        sys.exit("the pick files were made on different position sets")
    data = load(set_path)
    judge = Engine(args.judge, data["variant"])
    verdicts = data["verdicts"]
    losses = []
    for run in runs:
        row = []
        for (start, moves), mv in zip(data["positions"], run["moves"]):
            k = key(start, moves + [mv])
            if k not in verdicts:
                judge.send("usinewgame")
                verdicts[k] = judge.judge(start, moves + [mv], data["nodes"])[0]
            before, after = verdicts[key(start, moves)], verdicts[k]
            row.append(None if after is None else max(0, min(LOSS_CAP, before + after)))
        losses.append(row)
        save(set_path, data)
    judge.quit()
    first = losses[0]
    for path, run, row in zip(args.picks, runs, losses):
        known = [x for x in row if x is not None]
        diffs = [x - y for x, y in zip(row, first) if x is not None and y is not None]
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        print(f"{path}: {run['engine']} ({run['go']}): mean loss {sum(known) / len(known):.1f} cp over "
              f"{len(known)} moves, {sum(x >= 300 for x in known)} lose 300+; "
              f"against the first: {mean:+.1f} ± {1.96 * sd / math.sqrt(len(diffs)):.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions", help="take and judge positions from game records")
    p.add_argument("records", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--variant", default="shogi")
    p.add_argument("--every", type=int, default=2, help="every this many plies (2: one side to move)")
    p.add_argument("--skip", type=int, default=8, help="leave out this many opening plies")
    p.add_argument("--tail", type=int, default=6, help="leave out this many last plies")
    p.add_argument("--nodes", type=int, default=100000, help="the judge's nodes per position")
    p.add_argument("--judge", default=JUDGE, help="the judging engine's command line")
    p.set_defaults(run=positions)
    p = sub.add_parser("pick", help="let one engine version choose a move in every position")
    p.add_argument("--positions", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--engine", required=True, help="USI command line, options after ';'")
    p.add_argument("--go", default="movetime 200")
    p.set_defaults(run=pick)
    p = sub.add_parser("compare", help="judge the picked moves, compared with the first file")
    p.add_argument("picks", nargs="+")
    p.add_argument("--judge", default=JUDGE, help="the judging engine's command line")
    p.set_defaults(run=compare)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
