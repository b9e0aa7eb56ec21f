"""Replays self-play games with pydraughts as an independent referee (tests/soak.rs writes them).

Usage: python replay_games.py <games.tsv>
Each line: a pydraughts variant name, a tab, the moves in Hub notation separated by spaces (captured
squares in any order). Exits non-zero when a move is not among pydraughts' legal moves.
"""

import re
import sys

from draughts import Board


def key(hub_move):
    """A move as (from, to, captured squares as a set): the same move in any capture order."""
    squares = [int(s) for s in re.split(r"[-x]", hub_move) if s]
    return squares[0], squares[1], frozenset(squares[2:])


def main():
    games = moves = 0
    with open(sys.argv[1]) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            variant, _, played = line.partition("\t")
            board = Board(variant)
            for ply, text in enumerate(played.split(), 1):
                legal = {key(m.hub_move): m for m in board.legal_moves()}
                move = legal.get(key(text))
                if move is None:
                    print(
                        f"game {number} ({variant}), ply {ply}: {text} is not legal in {board.fen}; "
                        f"legal: {sorted(m.hub_move for m in legal.values())}"
                    )
                    sys.exit(1)
                board.push(move)
                moves += 1
            games += 1
    print(f"{games} games, {moves} moves replayed, all legal")


if __name__ == "__main__":
    main()
