#!/usr/bin/env python3
"""Where the decisive games of a match turned, replayed from its `--log` and `--pdn` files
(International; engines speaking Hub, as Tempo does, or Hub-1, as Scan 2.0 does).

From the log, every engine ply: the plies played before it, the mover's own score (the last `info`
before its move, in hundredths of a man; none when it played at once) and its depth, and the pieces
on the board. Each game is matched to its PDN game by its moves to learn the result. For each game
the winner won, the *turn* is the winner's first ply whose own score reached +THRESHOLD. Around it,
the loser's best own score over its last three searched plies before the turn and its worst over
its first two after: a *sharp* turn is one where it fell by THRESHOLD or more (the loser saw the trouble only
after its move: a combination or a loss of material found too late), the others are *gradual* (the
loser already stood worse, or never saw it). Prints one line per lost game, then a summary by
loser: losses, the pieces on the board at the turn (quartiles), sharp and gradual turns; and
for each engine the mean and median of the deepest iteration it reported a ply.

Engines are named `engine1`, `engine2`, ... in the order of `tempo match --engine` options.

usage: turning_points.py MATCH.log MATCH.pdn [--threshold 50]
"""
import argparse
import statistics

from adjudication_replay import engine_plies, pdn_results


def turn(game, result, threshold):
    """(loser, winner, turn ply, pieces then, loser's score before, after) or None."""
    if result not in ('2-0', '0-2'):
        return None
    winner_white = result == '2-0'
    engines = {p[1]: p[0] % 2 == 0 for p in game}  # engine -> plays White (White moves first)
    winner = next((e for e, white in engines.items() if white == winner_white), None)
    loser = next((e for e in engines if e != winner), None)
    if winner is None or loser is None:
        return None
    at = next((p for p in game if p[1] == winner and p[2] is not None and p[2] >= threshold), None)
    if at is None:
        return (loser, winner, None, None, None, None)
    before = [p[2] for p in game if p[1] == loser and p[2] is not None and p[0] < at[0]][-3:]
    after = [p[2] for p in game if p[1] == loser and p[2] is not None and p[0] > at[0]][:2]
    return (loser, winner, at[0], at[4], max(before) if before else None,
            min(after) if after else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('log')
    parser.add_argument('pdn')
    parser.add_argument('--threshold', type=int, default=50)
    args = parser.parse_args()
    results = pdn_results(args.pdn)
    by_loser = {}
    games = engine_plies(args.log)
    for game in games:
        t = turn(game, results.get(tuple(game[-1][5])), args.threshold)
        if t is None:
            continue
        loser, winner, ply, pieces, before, after = t
        sharp = before is not None and after is not None and before - after >= args.threshold
        by_loser.setdefault(loser, []).append((pieces, sharp, before is None or after is None))
        print(f"{loser} lost ({len(game[-1][5])} plies): {winner} reached +{args.threshold} at ply "
              f"{ply} with {pieces} pieces; {loser}'s own score before {before}, after {after}"
              f"{' (sharp)' if sharp else ''}")
    depths = {}
    for game in games:
        for _, engine, _, depth, _, _ in game:
            if depth is not None:
                depths.setdefault(engine, []).append(depth)
    for engine, ds in sorted(depths.items()):
        print(f"{engine}: deepest iteration reported, over {len(ds)} searched plies: mean "
              f"{statistics.mean(ds):.1f}, median {statistics.median(ds)}")
    for loser, turns in sorted(by_loser.items()):
        pieces = sorted(p for p, _, _ in turns if p is not None)
        quartiles = statistics.quantiles(pieces, n=4, method='inclusive') if len(pieces) >= 2 else pieces
        sharp = sum(1 for _, s, _ in turns if s)
        unknown = sum(1 for _, s, u in turns if u and not s)
        print(f"{loser}: {len(turns)} losses; pieces at the turn {pieces[:1] + quartiles + pieces[-1:]}"
              f" (least, quartiles, most); {sharp} sharp, {len(turns) - sharp - unknown} gradual,"
              f" {unknown} without a score on one side")


if __name__ == '__main__':
    main()
