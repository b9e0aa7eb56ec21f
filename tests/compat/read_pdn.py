"""Reads a PDN file written by `tempo match` (or, with --annotated, by `tempo analyze --annotate`)
with pydraughts' own PDN reader and replays every game's main line on pydraughts' board, which
checks each move against its own rules implementation. A match's games must also carry the
International results (2-0, 0-2, 1-1) in their tag and at the end of their move text; an annotated
file keeps the results of the games it was made from, and its marks (`?`, `??`), comments and
variations must not disturb the main line.

Usage: python read_pdn.py [--annotated] <file.pdn> [expected number of games]
Prints `ok: N games, M moves` and exits 0 when every game reads back and replays; otherwise names
the game and move that fail and exits 1.
"""

import sys

from draughts import Board, Move
from draughts.PDN import PDNReader


def main():
    args = sys.argv[1:]
    annotated = "--annotated" in args
    args = [a for a in args if a != "--annotated"]
    path = args[0]
    expected = int(args[1]) if len(args) > 1 else None
    games = PDNReader(filename=path).games
    total = 0
    for n, game in enumerate(games, 1):
        variant = game.variant or "standard"
        fen = game.tags.get("FEN", "startpos")
        board = Board(variant, fen)
        for i, text in enumerate(game.moves):
            try:
                move = Move(board, pdn_move=text.rstrip("?!") if annotated else text)
                board.push(move)
            except Exception as e:  # pydraughts raises ValueError/IndexError on a move it cannot match
                print(f"game {n} ({game.tags.get('White')} vs {game.tags.get('Black')}), "
                      f"ply {i + 1}: pydraughts cannot play {text!r}: {e!r}")
                return 1
        total += len(game.moves)
        if annotated:
            continue
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
