"""Plays Tempo through pydraughts' HubEngine (the client lidraughts-bot uses) in every variant
pydraughts knows, with pydraughts as the independent referee of every move.

Usage: python pydraughts_games.py <path to tempo> [seed]

Per variant: one game from the initial position and one from a position reached by random moves
(sent as a position string of its own, not as the initial one), Tempo on both sides. Exits non-zero
on any failure: an illegal move (pydraughts cannot match it), an engine error, an info line that
lidraughts' fixed-order pattern does not match, a variant name Tempo refuses, a game that does not
end, or a game pydraughts ends with no legal move where Tempo still answers with a move.

For every game it prints one `END` line with the position string and moves exactly as HubEngine
sent them and pydraughts' verdict, for tests/pydraughts.rs to replay in Tempo's own rules:
`END variant=<name> start=<string> moves="<moves>" result=<r>` with <r> one of `tomove` (the side
to move has won), `mover` (the side that just moved has won), `threefold` or `count` (pydraughts'
draw rules: repetition, or a counted rule).
"""

import logging
import random
import re
import sys
import time

from draughts import Board
from draughts.engine import HubEngine, Limit

# lidraughts' web client pattern for Scan's info lines (ui/ceval/src/scanProtocol.ts).
LIDRAUGHTS_INFO = re.compile(
    r'^info depth=(\d+) mean-depth=\S+ score=(\S+) nodes=(\d+) time=(\S+) (?:nps=\S+ )?pv="?([^"]*)"?$'
)
# pydraughts' variant names, with the name lidraughts-bot sends for the variant parameter (Scan's
# names where Scan has the variant). The first game sends the second name, the other pydraughts'.
VARIANTS = {
    "standard": "normal",
    "frisian": "frisian",
    "frysk!": "frysk",
    "antidraughts": "losing",
    "breakthrough": "bt",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "turkish": "turkish",
}
MAX_PLIES = 500
RANDOM_PLIES = (12, 30)


class Lines(logging.Handler):
    """Collects the lines pydraughts reads from the engine (it logs them at debug level)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        m = re.search(r">> %s \d+ (.*)$", record.getMessage())
        if m:
            self.lines.append(m.group(1))


def check_lines(variant, lines, before):
    for line in lines.lines[before:]:
        if line.startswith("info") and not LIDRAUGHTS_INFO.match(line):
            raise AssertionError(f"{variant}: info line lidraughts cannot read: {line}")
        if line.startswith("error"):
            raise AssertionError(f"{variant}: engine error: {line}")


def set_variant(engine, lines, name):
    """Sets the variant and checks that Tempo took the name (an error line would follow ping)."""
    before = len(lines.lines)
    engine.setoption("variant", name)
    engine.ping()
    check_lines(name, lines, before)


def limit_for(game, ply):
    """Every kind of `level` line pydraughts sends, with short searches."""
    if ply % 11 == 5:
        return Limit(depth=3)
    if ply % 13 == 7:
        return Limit(nodes=3000)
    if game == 0:
        return Limit(movetime=0.005)
    # A Fischer clock (pydraughts subtracts the increment, as Hub engines add it).
    return Limit(time=0.2, inc=0.005)


def no_move_answer(engine, board):
    """Asks Tempo for a move where pydraughts finds none: Tempo must answer `done` with no move
    (HubEngine itself cannot read that answer)."""
    moves = " ".join(m.hub_move for m in board.move_stack)
    start = board._game.initial_hub_fen
    engine.send(f'pos pos={start} moves="{moves}"' if moves else f"pos pos={start}")
    engine.send("level depth=1")
    engine.send("go think")
    while True:
        line = engine.recv()
        if line.startswith("done"):
            return line


def play(engine, variant, board, game, lines):
    plies = 0
    while not board.is_over():
        if plies >= MAX_PLIES:
            raise AssertionError(f"{variant}: no result after {MAX_PLIES} plies: {board.fen}")
        before = len(lines.lines)
        try:
            result = engine.play(board, limit_for(game, plies), ponder=False)
        except KeyError as e:
            raise AssertionError(f"{variant}: illegal move from Tempo at ply {plies + 1} in {board.fen}: {e}")
        except IndexError:
            # HubEngine cannot read a `done` without a move: Tempo found no legal move.
            raise AssertionError(f"{variant}: Tempo finds no move at ply {plies + 1} in {board.fen}")
        check_lines(variant, lines, before)
        legal = [m.hub_move for m in board.legal_moves()]
        if result.move.hub_move not in legal:
            raise AssertionError(f"{variant}: {result.move.hub_move} not among {legal}")
        board.push(result.move)
        plies += 1
    if not board.legal_moves():
        answer = no_move_answer(engine, board)
        if answer != "done":
            raise AssertionError(f"{variant}: no legal move for pydraughts, Tempo answers {answer}")
    winner = board.winner()
    if winner == 0:
        result = "threefold" if board._game.is_threefold() else "count"
    else:
        result = "tomove" if winner == board.turn else "mover"
    moves = " ".join(m.hub_move for m in board.move_stack)
    print(f'END variant={variant} start={board._game.initial_hub_fen} moves="{moves}" result={result}')
    return plies, result


def random_start(variant, rng):
    """A position some random moves into the game, as a board that starts there."""
    while True:
        board = Board(variant)
        for _ in range(rng.randint(*RANDOM_PLIES)):
            moves = board.legal_moves()
            if board.is_over() or not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_over():
            return Board(variant, board._game.get_fen())


def main():
    tempo = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    lines = Lines()
    log = logging.getLogger("pydraughts")
    log.setLevel(logging.DEBUG)
    log.addHandler(lines)
    engine = HubEngine([tempo, "hub"])
    assert engine.id.get("name") == "Tempo", engine.id
    engine.init()
    start = time.time()
    for variant, bot_name in VARIANTS.items():
        for game, name in enumerate([bot_name, variant]):
            set_variant(engine, lines, name)
            board = Board(variant) if game == 0 else random_start(variant, rng)
            began = time.time()
            plies, result = play(engine, variant, board, game, lines)
            where = "initial position" if game == 0 else f"position {board._game.initial_hub_fen}"
            print(
                f"{variant} game {game + 1} (variant={name}, {where}): {plies} plies, {result}, "
                f"{time.time() - began:.1f} s",
                flush=True,
            )
    engine.ping()
    engine.quit()
    code = engine.p.wait(timeout=5)
    assert code == 0, f"exit code {code}"
    engine.p.stdin.close()
    engine.p.stdout.close()
    infos = sum(1 for l in lines.lines if l.startswith("info"))
    print(f"ok: {infos} info lines checked, {time.time() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
