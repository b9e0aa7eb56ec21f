#!/usr/bin/env python3
"""Time to depth of Tempo binaries over a set of positions, for changes that keep the search's nodes.

For each position of a file (one FEN a line, or `start` for the variant's initial position;
`side_by_side_positions.txt` holds the eleven of docs/records/search.md "Side by side with Scan 2.0", `game_positions.txt`
forty from games against Scan), the first binary's `tempo search --movetime SECONDS` gives the depth
it completes in that time (the line before a last line stopped by the clock); then every binary
searches the position to that depth (`tempo search --depth D`), the binaries taking turns, RUNS
rounds, and the least time of each counts (the machine's speed moves from one search to the
next: the least time is the one least disturbed). Prints each position's times and node counts
(a change meant to keep the search as it was must show the same nodes), then each binary's total
and its ratio to the first binary's.

Compare release builds: a non-LTO build carries costs the release build does not have, so a
change measured between two non-LTO builds can show a gain the shipped binary never sees.

usage: time_to_depth.py POSITIONS BINARY [BINARY ...] [--runs 3] [--seconds 1] [--variant international]
"""
import argparse
import subprocess


def search(binary, variant, fen, *limit):
    """The `depth` lines of one search, as lists of words."""
    position = [] if fen == 'start' else ['--fen', fen]
    out = subprocess.run([binary, 'search', '--variant', variant, *position, *limit],
                         capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines() if line.startswith('depth ')]


def field(words, name):
    return words[words.index(name) + 1]


def completed_depth(binary, variant, fen, seconds):
    """The deepest iteration completed within `seconds`: the last line's depth unless that line
    is the iteration the clock stopped (its time at the limit), then the one before."""
    lines = search(binary, variant, fen, '--movetime', str(seconds))
    last = lines[-1]
    if float(field(last, 'time')) >= seconds * 0.999 and len(lines) > 1:
        last = lines[-2]
    return int(field(last, 'depth'))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('positions')
    ap.add_argument('binaries', nargs='+')
    ap.add_argument('--runs', type=int, default=3, help='rounds of searches a position (default 3)')
    ap.add_argument('--seconds', type=float, default=1.0,
                    help='time in which the first binary sets the depth (default 1)')
    ap.add_argument('--variant', default='international')
    a = ap.parse_args()
    fens = [line.strip() for line in open(a.positions) if line.strip()]
    total = {b: 0.0 for b in a.binaries}
    for fen in fens:
        depth = completed_depth(a.binaries[0], a.variant, fen, a.seconds)
        times = {b: [] for b in a.binaries}
        nodes = {}
        for _ in range(a.runs):
            for b in a.binaries:
                last = search(b, a.variant, fen, '--depth', str(depth))[-1]
                times[b].append(float(field(last, 'time')))
                nodes[b] = int(field(last, 'nodes'))
        row = ['%s d%d' % (fen[:32], depth)]
        for b in a.binaries:
            total[b] += min(times[b])
            row.append('%.3f s %d nodes' % (min(times[b]), nodes[b]))
        print(' | '.join(row), flush=True)
    for b in a.binaries:
        print('%s: total of the least times %.2f s, ratio to the first %.3f'
              % (b, total[b], total[b] / total[a.binaries[0]]))


if __name__ == '__main__':
    main()
