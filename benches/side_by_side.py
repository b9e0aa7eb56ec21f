#!/usr/bin/env python3
"""Tempo and Scan 2.0 side by side: depth completed and nodes/s in 1 s a move, one thread each.

For each position of a file (PDN FEN, one a line; `side_by_side_positions.txt` holds the
International start and the ten middle games of docs/records/search.md "Side by side with Scan 2.0",
`game_positions.txt` forty middle games from Tempo's games against Scan 2.0 of 2026-11-28),
Scan 2.0 searches through its first Hub protocol (`hub`, `set book false`, `init`, `pos`, `time`,
`go`; its last `info` line counts) and then each Tempo binary runs `tempo search --movetime`
(its last `depth` line counts), so the engines meet the machine in the same minute.
Scan's last `info` line is that of an iteration it had started (it reports each new best root
move, the first of an iteration included, and nothing when an iteration ends): `--completed`
asks Scan a second time, to that depth, whether it completes it within the time. Tempo's last
line is also that of an iteration in progress when the time ran out (it reports the best line
found so far at that depth), so `--completed` asks each Tempo binary the same question the same
way: `tempo search --depth` to the depth shown, completed if that line's time is within `ms`
(one thread is deterministic: the same tree as in the timed search).
Prints one line a position and, per Tempo binary, the ratio of its nodes/s to Scan's (mean,
median, range) and its depth minus Scan's.

Scan is not part of Tempo: build it yourself from its public repository (see docs/match.md) and give
its directory (with `scan` and its `data/`).

usage: side_by_side.py POSITIONS SCAN_DIR TEMPO [TEMPO ...] [--ms 1000] [--completed]
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


def scan_search(scan_dir, fen, ms, depth=None):
    """Scan's last `info` line within `ms` milliseconds: (depth, nodes/s). With `depth`, a search
    to that depth instead (its time limit far away): (depth, seconds from `go` to `move`)."""
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
    if depth is None:
        send('time %d' % ms)
    else:
        send('depth %d' % depth)
        send('time %d' % 1000000)
    start = time.monotonic()
    send('go')
    last = None
    for line in proc.stdout:
        if line.startswith('info'):
            last = line.split()
        if line.startswith('move'):
            break
    seconds = time.monotonic() - start
    send('quit')
    proc.wait()
    if depth is not None:
        return depth, seconds
    # info DEPTH PLY SCORE NODES TIME SPEED PV
    return int(last[1]), int(last[4]) / float(last[5])


def scan_completed(scan_dir, fen, ms, shown):
    """The deepest iteration Scan completes within `ms`. Scan sends `info` whenever the root's
    best move changes, the first move of each iteration included, and nothing when an iteration
    ends; so the depth of its last `info` line, `shown`, is an iteration that had started, and
    `shown - 1` had completed. Whether `shown` completed too is asked by a search to that depth."""
    _, seconds = scan_search(scan_dir, fen, ms, depth=shown)
    return shown if seconds <= ms / 1000 else shown - 1


def tempo_search(binary, fen, ms):
    out = subprocess.run([binary, 'search', '--fen', fen, '--movetime', str(ms / 1000)],
                         capture_output=True, text=True, check=True).stdout
    last = [line.split() for line in out.splitlines() if line.startswith('depth ')][-1]
    nodes = int(last[last.index('nodes') + 1])
    seconds = float(last[last.index('time') + 1])
    return int(last[1]), nodes / seconds


def tempo_completed(binary, fen, ms, shown):
    """The deepest iteration a Tempo binary completes within `ms`: `shown` (the depth of its last
    line in the timed search) if a search to that depth reports it within `ms`, else `shown - 1`
    (the line before the last one came after a completed iteration)."""
    out = subprocess.run([binary, 'search', '--fen', fen, '--depth', str(shown)],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        words = line.split()
        if words[:2] == ['depth', str(shown)]:
            return shown if float(words[words.index('time') + 1]) <= ms / 1000 else shown - 1
    return shown - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('positions')
    ap.add_argument('scan_dir')
    ap.add_argument('tempo', nargs='+')
    ap.add_argument('--ms', type=int, default=1000, help='milliseconds a search (default 1000)')
    ap.add_argument('--completed', action='store_true',
                    help="compare the depths the engines complete (a second search of each engine to "
                         "the depth of its last line), not the depths of those lines")
    a = ap.parse_args()
    fens = [line.strip() for line in open(a.positions) if line.strip()]
    load = open('/proc/loadavg').read().split()[:3]
    print('# %s UTC, load average %s' % (time.strftime('%H:%M:%S', time.gmtime()), ' '.join(load)))
    ratios = {b: [] for b in a.tempo}
    depths = {b: [] for b in a.tempo}
    for i, fen in enumerate(fens):
        sd, sn = scan_search(a.scan_dir, fen, a.ms)
        row = ['position %d' % i, 'Scan d%d %.2f M' % (sd, sn / 1e6)]
        if a.completed:
            shown = sd
            sd = scan_completed(a.scan_dir, fen, a.ms, shown)
            row[1] = 'Scan d%d (shown d%d) %.2f M' % (sd, shown, sn / 1e6)
        for b in a.tempo:
            td, tn = tempo_search(b, fen, a.ms)
            label = 'd%d' % td
            if a.completed:
                shown = td
                td = tempo_completed(b, fen, a.ms, shown)
                label = 'd%d (shown d%d)' % (td, shown)
            ratios[b].append(tn / sn)
            depths[b].append(td - sd)
            row.append('%s %s %.2f M (%.2f, %+d)' % (b, label, tn / 1e6, tn / sn, td - sd))
        print(' | '.join(row), flush=True)
    for b in a.tempo:
        r = ratios[b]
        print('%s: nodes/s over Scan\'s mean %.3f, median %.3f, %.3f-%.3f; depth minus Scan\'s %s, '
              'at least -1 in %d of %d' % (b, statistics.mean(r), statistics.median(r), min(r), max(r),
                                            depths[b], sum(d >= -1 for d in depths[b]), len(r)))


if __name__ == '__main__':
    main()
