"""Plays Tempo through pydraughts' HubEngine (the client lidraughts-bot uses) in the four 10x10
variants pydraughts and Scan share, with pydraughts as the independent referee of every move.

Usage: python pydraughts_games.py <path to tempo> [games per variant]
Exits non-zero on any failure: an illegal move (pydraughts cannot match it), an info line that
lidraughts' fixed-order pattern does not match, or a game that does not end.
"""

import logging
import re
import sys
import time

from draughts import Board
from draughts.engine import HubEngine, Limit

# lidraughts' web client pattern for Scan's info lines (ui/ceval/src/scanProtocol.ts).
LIDRAUGHTS_INFO = re.compile(
    r'^info depth=(\d+) mean-depth=\S+ score=(\S+) nodes=(\d+) time=(\S+) (?:nps=\S+ )?pv="?([^"]*)"?$'
)
# pydraughts names -> Scan's names for the variant parameter.
VARIANTS = {"standard": "normal", "frisian": "frisian", "antidraughts": "losing", "breakthrough": "bt"}
MAX_PLIES = 600


class Lines(logging.Handler):
    """Collects the lines pydraughts reads from the engine (it logs them at debug level)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        m = re.search(r">> %s \d+ (.*)$", record.getMessage())
        if m:
            self.lines.append(m.group(1))


def play(engine, variant, limit_for, lines):
    board = Board(variant)
    plies = 0
    while not board.is_over():
        if plies >= MAX_PLIES:
            raise AssertionError(f"{variant}: no result after {MAX_PLIES} plies: {board.fen}")
        before = len(lines.lines)
        try:
            result = engine.play(board, limit_for(plies), ponder=False)
        except KeyError as e:
            raise AssertionError(f"{variant}: illegal move from Tempo at ply {plies + 1} in {board.fen}: {e}")
        for line in lines.lines[before:]:
            if line.startswith("info") and not LIDRAUGHTS_INFO.match(line):
                raise AssertionError(f"{variant}: info line lidraughts cannot read: {line}")
            if line.startswith("error"):
                raise AssertionError(f"{variant}: engine error: {line}")
        legal = [m.hub_move for m in board.legal_moves()]
        if result.move.hub_move not in legal:
            raise AssertionError(f"{variant}: {result.move.hub_move} not among {legal}")
        board.push(result.move)
        plies += 1
    return plies, board.winner()


def main():
    tempo = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    lines = Lines()
    log = logging.getLogger("pydraughts")
    log.setLevel(logging.DEBUG)
    log.addHandler(lines)
    engine = HubEngine([tempo, "hub"])
    assert engine.id.get("name") == "Tempo", engine.id
    missing = set(VARIANTS.values()) - engine.variants
    assert not missing, f"variants not declared: {missing}"
    engine.init()
    start = time.time()
    for variant, hub_name in VARIANTS.items():
        engine.setoption("variant", hub_name)
        for game in range(games):
            # Alternate limits: fixed move time, and a Fischer clock (pydraughts subtracts the
            # increment, as Hub engines add it before every move).
            if game % 2 == 0:
                limit_for = lambda ply: Limit(movetime=0.01)
            else:
                limit_for = lambda ply: Limit(time=1.0, inc=0.01)
            plies, winner = play(engine, variant, limit_for, lines)
            print(f"{variant} game {game + 1}: {plies} plies, winner {winner}", flush=True)
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
