"""Reads a PDN file written by `tempo analyze --annotate` with pydraughts' own PDN reader and
replays every game's main line on pydraughts' board, which checks each move against its own rules.
Comments, marks and variations must not disturb the main line.

Usage: python read_annotated.py <file.pdn> [expected number of games]
Prints `ok: N games, M moves` and exits 0 when every game reads back and replays; otherwise names
the game and move that fail and exits 1.
"""

import sys

from draughts import Board, Move
from draughts.PDN import PDNReader


def main():
    path = sys.argv[1]
    expected = int(sys.argv[2]) if len(sys.argv) > 2 else None
    games = PDNReader(filename=path).games
    total = 0
    for n, game in enumerate(games, 1):
        variant = game.variant or "standard"
        fen = game.tags.get("FEN", "startpos")
        board = Board(variant, fen)
        for i, text in enumerate(game.moves):
            try:
                board.push(Move(board, pdn_move=text.rstrip("?!")))
            except Exception as e:  # pydraughts raises ValueError/IndexError on a move it cannot match
                print(f"game {n}, ply {i + 1}: pydraughts cannot play {text!r}: {e!r}")
                return 1
        total += len(game.moves)
    if expected is not None and len(games) != expected:
        print(f"read {len(games)} games, expected {expected}")
        return 1
    print(f"ok: {len(games)} games, {total} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
