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
loser: losses, the pieces on the board at the turn (quartiles), sharp and gradual turns.

Engines are named `engine1`, `engine2`, ... in the order of `tempo match --engine` options.

usage: turning_points.py MATCH.log MATCH.pdn [--threshold 50]
"""
import argparse
import re
import statistics

from adjudication_replay import LINE, captured, hub_to_standard, pdn_results


def engine_plies(path):
    """Each game as a list of plies (plies before the move, engine, own score or None, depth or
    None, pieces on the board, the game's moves so far in standard notation)."""
    by_worker, hub, hub1 = {}, {}, {}
    for line in open(path, errors='replace'):
        m = LINE.match(line)
        if not m or '.' not in m.group(1):
            continue  # the handshake engines (no worker) play no game
        who, way, text = m.groups()
        engine, worker = who.split('.', 1)
        played = None
        if way == '>' and text.startswith('pos '):  # Hub: the position and its moves at once
            mm = re.search(r'moves="([^"]*)"', text) or re.search(r'moves=(\S+)', text)
            hub[who] = {'moves': mm.group(1).split() if mm else [], 'score': None, 'depth': None}
        elif way == '>' and text == 'start':  # Hub-1: `start`, then one `move` line a ply
            hub1[who] = {'moves': [], 'score': None, 'depth': None}
        elif way == '>' and text.startswith('move ') and who in hub1:
            hub1[who]['moves'].append(text.split()[1])
        elif way == '<' and who in hub:
            a = hub[who]
            if text.startswith('info'):
                s = re.search(r'score=(-?[\d.]+)', text)
                d = re.search(r'depth=(\d+)', text)
                if s:
                    a['score'] = round(float(s.group(1)) * 100)
                if d:
                    a['depth'] = int(d.group(1))
            elif text.startswith('done'):
                played = (hub.pop(who), re.search(r'move=(\S+)', text).group(1))
        elif way == '<' and who in hub1:
            a = hub1[who]
            words = text.split()
            # info DEPTH MEAN-DEPTH SCORE NODES ...; depth 0 is a move played at once, no score
            if words[0] == 'info' and len(words) >= 4 and words[1] != '0':
                a['depth'], a['score'] = int(words[1]), int(words[3])
            elif words[0] == 'move':
                played = (hub1.pop(who), words[1])
        if played:
            a, move = played
            moves = a['moves']
            by_worker.setdefault(worker, []).append((
                len(moves), engine, a['score'], a['depth'], 40 - sum(captured(x) for x in moves),
                [hub_to_standard(x) for x in moves + [move]]))
    games = []
    for plies in by_worker.values():
        game = []
        for p in plies:
            if game and p[0] <= game[-1][0]:  # fewer plies than the last: the next game
                games.append(game)
                game = []
            game.append(p)
        if game:
            games.append(game)
    return games


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
    for game in engine_plies(args.log):
        t = turn(game, results.get(tuple(game[-1][5])), args.threshold)
        if t is None:
            continue
        loser, winner, ply, pieces, before, after = t
        sharp = before is not None and after is not None and before - after >= args.threshold
        by_loser.setdefault(loser, []).append((pieces, sharp, before is None or after is None))
        print(f"{loser} lost ({len(game[-1][5])} plies): {winner} reached +{args.threshold} at ply "
              f"{ply} with {pieces} pieces; {loser}'s own score before {before}, after {after}"
              f"{' (sharp)' if sharp else ''}")
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
