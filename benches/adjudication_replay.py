#!/usr/bin/env python3
"""What `tempo match --adjudicate-draw` and `--adjudicate-egdb` would have saved in a match already
played, replayed from its `--log` and `--pdn` files (International: 40 pieces at the start).

From the log, for each game: every engine ply's mover score (the last `info` before `done`; none
when the engine played at once without one) and the pieces on the board (a Hub move lists the
squares it captures after its two ends); each game is matched to its PDN game by its moves to learn
the real result. Prints the share of the searched plies played with at most N pieces (the most a
table adjudication at N pieces could save), then, for each draw rule MEN/PLIES/FROM, the games it
would have ended, how many of those had really ended decisively, and the searched plies saved.

usage: adjudication_replay.py MATCH.log MATCH.pdn
"""
import itertools
import re
import sys

LINE = re.compile(r'\s*[\d.]+ (\S+)#\d+ ([<>]) (.*)')


def hub_to_standard(move):
    """`27x18x22` (from, to, captured squares) -> `27x18`; `32-27` stays."""
    parts = re.split(r'[x-]', move)
    return f"{int(parts[0])}{'x' if 'x' in move else '-'}{int(parts[1])}"


def captured(move):
    return len(re.split(r'[x-]', move)) - 2


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


def log_games(path):
    """Each game: `plies`, a list of (plies before the move, White's score or None, searched,
    pieces on the board), and `moves` in standard notation (White moves first: games from the
    start position)."""
    return [{'plies': [(n, score if score is None or n % 2 == 0 else -score, score is not None,
                        pieces) for n, _, score, _, pieces, _ in plies],
             'moves': plies[-1][5]} for plies in engine_plies(path)]


def pdn_results(path):
    results = {}
    for game in open(path).read().split('[Event')[1:]:
        result = re.search(r'\[Result "([^"]+)"\]', game).group(1)
        body = game.rsplit(']', 1)[1]
        moves = [t for t in body.split() if re.fullmatch(r'\d+[x-]\d+', t)]
        if moves and moves[-1] == result:
            moves.pop()  # `1-1` looks like a move
        results[tuple(moves)] = result
    return results


def replay_draw_rule(games, results, men, window, start):
    matched = ended = decisive = saved = total = 0
    for g in games:
        result = results.get(tuple(g['moves']))
        if result is None:
            continue
        matched += 1
        total += sum(1 for p in g['plies'] if p[2])
        scores = []
        for i, (n, score, _, _) in enumerate(g['plies']):
            # The manager's check before this ply: `n` plies played, `scores` reported so far.
            if n >= start and len(scores) >= window and all(
                    s is not None and abs(s) <= men for s in scores[-window:]):
                ended += 1
                saved += sum(1 for p in g['plies'][i:] if p[2])
                decisive += result not in ('1-1', '1/2-1/2')
                break
            scores.append(score)
    return matched, ended, decisive, saved, total


def main():
    games = log_games(sys.argv[1])
    results = pdn_results(sys.argv[2])
    print(f"{len(games)} games in the log, {len(results)} in the PDN")
    searched = [p for g in games for p in g['plies'] if p[2]]
    for n in [4, 5, 6, 8, 10]:
        k = sum(1 for p in searched if p[3] <= n)
        print(f"searched plies with <= {n} pieces: {k}/{len(searched)} = {k / len(searched):.1%}")
    for men, window, start in itertools.product([0, 5, 10], [10, 20, 40], [60, 80, 100]):
        m, e, d, s, t = replay_draw_rule(games, results, men, window, start)
        print(f"--adjudicate-draw {men / 100:.2f}/{window}/{start}: {m} games matched, {e} ended "
              f"({d} really decisive), searched plies saved {s}/{t} = {s / max(t, 1):.1%}")


if __name__ == '__main__':
    main()
