#!/usr/bin/env python3
"""Tempo and Scan 2.0 side by side: depth completed and nodes/s in 1 s a move, one thread each.

For each position of a file (PDN FEN, one a line; `side_by_side_positions.txt` holds the
International start and the ten middle games of README "Against Scan 2.0, side by side"), Scan
2.0 searches through its first Hub protocol (`hub`, `set book false`, `init`, `pos`, `time`,
`go`; its last `info` line counts) and then each Tempo binary runs `tempo search --movetime`
(its last completed iteration counts), so the engines meet the machine in the same minute.
Prints one line a position and, per Tempo binary, the ratio of its nodes/s to Scan's (mean,
median, range) and its depth minus Scan's.

Scan is not part of Tempo: build it yourself from its public repository (see README) and give
its directory (with `scan` and its `data/`).

usage: side_by_side.py POSITIONS SCAN_DIR TEMPO [TEMPO ...] [--ms 1000]
"""
import argparse
import statistics
import subprocess
import time


def hub1_position(fen):
    """The Hub-1 position string of an International FEN: the side, then 50 squares w/b/W/B/e."""
    side, white, black = fen.split(':')
    squares = ['e'] * 50
    for part, colour in ((white[1:], 'w'), (black[1:], 'b')):
        for item in filter(None, part.split(',')):
            king = item.startswith('K')
            squares[int(item.lstrip('K')) - 1] = colour.upper() if king else colour
    return side.lower() + ''.join(squares)


def scan_search(scan_dir, fen, ms):
    proc = subprocess.Popen([scan_dir + '/scan', 'hub'], cwd=scan_dir, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + '\n')
        proc.stdin.flush()

    def until(word):
        for line in proc.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError('Scan ended before ' + word)

    send('hub')
    until('wait')
    send('set book false')
    send('init')
    until('ready')
    # The limit after `pos`, which resets it.
    send('pos ' + hub1_position(fen))
    send('time %d' % ms)
    send('go')
    last = None
    for line in proc.stdout:
        if line.startswith('info'):
            last = line.split()
        if line.startswith('move'):
            break
    send('quit')
    proc.wait()
    # info DEPTH PLY SCORE NODES TIME SPEED PV
    return int(last[1]), int(last[4]) / float(last[5])


def tempo_search(binary, fen, ms):
    out = subprocess.run([binary, 'search', '--fen', fen, '--movetime', str(ms / 1000)],
                         capture_output=True, text=True, check=True).stdout
    last = [line.split() for line in out.splitlines() if line.startswith('depth ')][-1]
    nodes = int(last[last.index('nodes') + 1])
    seconds = float(last[last.index('time') + 1])
    return int(last[1]), nodes / seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('positions')
    ap.add_argument('scan_dir')
    ap.add_argument('tempo', nargs='+')
    ap.add_argument('--ms', type=int, default=1000, help='milliseconds a search (default 1000)')
    a = ap.parse_args()
    fens = [line.strip() for line in open(a.positions) if line.strip()]
    load = open('/proc/loadavg').read().split()[:3]
    print('# %s UTC, load average %s' % (time.strftime('%H:%M:%S', time.gmtime()), ' '.join(load)))
    ratios = {b: [] for b in a.tempo}
    depths = {b: [] for b in a.tempo}
    for i, fen in enumerate(fens):
        sd, sn = scan_search(a.scan_dir, fen, a.ms)
        row = ['position %d' % i, 'Scan d%d %.2f M' % (sd, sn / 1e6)]
        for b in a.tempo:
            td, tn = tempo_search(b, fen, a.ms)
            ratios[b].append(tn / sn)
            depths[b].append(td - sd)
            row.append('%s d%d %.2f M (%.2f, %+d)' % (b, td, tn / 1e6, tn / sn, td - sd))
        print(' | '.join(row), flush=True)
    for b in a.tempo:
        r = ratios[b]
        print('%s: nodes/s over Scan\'s mean %.3f, median %.3f, %.3f-%.3f; depth minus Scan\'s %s, '
              'at least -1 in %d of %d' % (b, statistics.mean(r), statistics.median(r), min(r), max(r),
                                            depths[b], sum(d >= -1 for d in depths[b]), len(r)))


if __name__ == '__main__':
    main()
