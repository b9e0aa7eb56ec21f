#!/usr/bin/env python3
"""How long each engine of a logged match really thought, from its `--log` file.

A move's thinking time is the time from the manager's `go` to the engine's move (`done` in Hub,
`move` in Hub-1), as the log stamps them, so it includes the pipe round trip. Moves answered in
under 10 ms (a forced move, a book move) are counted apart. For each engine: its moves, those
answered at once, then over the searched ones the mean, median, 90th percentile and largest
time, and the share that took longer than LIMIT seconds (the `--movetime` of the match) by more
than 10 %; with the deepest iteration each move reported, its mean. A match at a fixed time a
move is at equal time only if the engines' means agree: Scan 2.0, for one, never stops before
it has finished depth 12, whatever the time limit says (docs/records/matches.md).

Engines are named `engine1`, `engine2`, ... in the order of `tempo match --engine` options.

usage: think_time.py MATCH.log [--limit 0.1]
"""
import argparse
import re
import statistics

STAMPED = re.compile(r'\s*([\d.]+) (\S+)#\d+ ([<>]) (.*)')


def think_times(path):
    """{engine: [(seconds, deepest depth reported or None), ...]} over the log's games."""
    started, depth, out = {}, {}, {}
    for line in open(path, errors='replace'):
        m = STAMPED.match(line)
        if not m or '.' not in m.group(2):
            continue  # the handshake engines (no worker) play no game
        stamp, who, way, text = float(m.group(1)), m.group(2), m.group(3), m.group(4)
        engine = who.split('.', 1)[0]
        if way == '>' and text.split()[:1] == ['go']:
            started[who], depth[who] = stamp, None
        elif way == '<' and who in started:
            words = text.split()
            if words[:1] == ['info']:
                d = re.search(r'depth=(\d+)', text)  # Hub
                if d:
                    depth[who] = int(d.group(1))
                elif len(words) > 1 and words[1].isdigit():  # Hub-1: info DEPTH ...
                    depth[who] = int(words[1]) or None
            elif words[:1] in (['done'], ['move']):
                out.setdefault(engine, []).append((stamp - started.pop(who), depth.pop(who)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('log')
    ap.add_argument('--limit', type=float, default=0.1, help='the match\'s time a move, seconds')
    a = ap.parse_args()
    print(f'{"engine":8} {"moves":>6} {"at once":>7} {"mean":>7} {"median":>7} {"p90":>7} '
          f'{"max":>7} {"over":>6} {"depth":>6}')
    for engine, moves in sorted(think_times(a.log).items()):
        searched = sorted(t for t, _ in moves if t >= 0.010)
        depths = [d for t, d in moves if t >= 0.010 and d]
        if not searched:
            print(f'{engine:8} {len(moves):6} {len(moves):7}')
            continue
        over = sum(t > a.limit * 1.1 for t in searched) / len(searched)
        p90 = searched[min(len(searched) - 1, int(0.9 * len(searched)))]
        mean_depth = f'{statistics.mean(depths):6.1f}' if depths else '     -'
        print(f'{engine:8} {len(moves):6} {len(moves) - len(searched):7} '
              f'{statistics.mean(searched):7.3f} {statistics.median(searched):7.3f} {p90:7.3f} '
              f'{searched[-1]:7.3f} {over:6.1%} {mean_depth}')


if __name__ == '__main__':
    main()
