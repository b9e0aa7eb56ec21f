"""Reads a PDN file written by `tempo match` with pydraughts' own PDN reader and replays every game
on pydraughts' board, which checks each move against its own rules implementation.

Usage: python read_pdn.py <file.pdn> [expected number of games]
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
                move = Move(board, pdn_move=text)
                board.push(move)
            except Exception as e:  # pydraughts raises ValueError/IndexError on a move it cannot match
                print(f"game {n} ({game.tags.get('White')} vs {game.tags.get('Black')}), "
                      f"ply {i + 1}: pydraughts cannot play {text!r}: {e!r}")
                return 1
        total += len(game.moves)
        result = game.tags.get("Result")
        if result not in ("2-0", "0-2", "1-1"):
            print(f"game {n}: unexpected result tag {result!r}")
            return 1
        if game.game_ending != result:
            print(f"game {n}: the move text ends with {game.game_ending!r}, the tag says {result!r}")
            return 1
    if expected is not None and len(games) != expected:
        print(f"read {len(games)} games, expected {expected}")
        return 1
    print(f"ok: {len(games)} games, {total} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
