"""pydraughts' DXPEngine drives `tempo dxp --listen` through a complete game.

Usage: dxp_game.py TEMPO_BINARY

pydraughts is the referee: every move Tempo sends is matched against pydraughts' own legal moves
(its receiver ignores an illegal one, and the game would stall: a time limit fails the test), and
the game runs until pydraughts' board says it is over. Tempo plays White (pydraughts' game request
always names White as the follower's colour), the other side plays random legal moves. Prints
`MOVES ...`, `RESULT ...` and `TEMPO <Tempo's game line>`, then `ok`.
"""

import random
import subprocess
import sys
import threading

import draughts
from draughts.engine import DXPEngine


def main():
    tempo = sys.argv[1]
    proc = subprocess.Popen(
        [tempo, "dxp", "--listen", "127.0.0.1:0", "--games", "1", "--movetime", "0.05",
         "--tt", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline().split()
    assert first[0] == "listening", first
    host, port = first[1].rsplit(":", 1)
    engine = DXPEngine(options={"engine-opened": True, "ip": host, "port": port,
                                "max-moves": 0}, initial_time=60)
    board = draughts.Board(variant="standard")
    rng = random.Random(22)
    while not board.is_over() and len(board.move_stack) < 300:
        if board.turn == draughts.WHITE:
            box = []
            t = threading.Thread(target=lambda: box.append(engine.play(board)), daemon=True)
            t.start()
            t.join(60)
            assert box, "no legal move from Tempo within 60 s (pydraughts refused it or none came)"
            move = box[0].move
            assert move is not None, "Tempo sent no move"
            legal = [m.pdn_move for m in board.legal_moves()]
            assert move.pdn_move in legal, (move.pdn_move, legal)
            board.push(move)
        else:
            board.push(rng.choice(board.legal_moves()))
    moves = [m.pdn_move for m in board.move_stack]
    print("MOVES", " ".join(moves))
    print("RESULT", board.winner(), "over" if board.is_over() else "not over")
    assert board.is_over(), "the game did not end in 300 plies"
    engine.quit()
    line = proc.stdout.readline().strip()
    print("TEMPO", line)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert line.startswith("game 1 "), line
    assert f"plies {len(moves)} " in line, (line, len(moves))
    # pydraughts' winner: WHITE (2) is Tempo; a game Tempo does not lose.
    winner = board.winner()
    if winner == draughts.WHITE:
        assert " 2-0 " in line, line
    elif winner == draughts.BLACK:
        assert " 0-2 " in line, line
    engine.kill_process()
    print("ok")


if __name__ == "__main__":
    main()
