# Reads a tempo selfplay file (International) and writes numpy arrays for a network experiment.
# The held-out split replicates `tempo train` (seed, holdout 0.1, whole games, file index 0).
import sys, numpy as np

M64 = (1 << 64) - 1

def splitmix(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)

def squares(field):
    out = []
    for part in field.split(','):
        if not part:
            continue
        king = part[0] == 'K'
        if king:
            part = part[1:]
        if '-' in part:
            a, b = part.split('-')
            out += [(int(s), king) for s in range(int(a), int(b) + 1)]
        else:
            out.append((int(part), king))
    return out

def encode(fen):
    parts = fen.split(':')
    stm = parts[0]
    idx = []
    for p in parts[1:]:
        if not p or p[0] not in 'WB':
            continue
        colour = p[0]
        for s, king in squares(p[1:]):
            own = colour == stm
            sq = s if stm == 'W' else 51 - s
            kind = (0 if own else 2) + (1 if king else 0)
            idx.append(kind * 50 + sq - 1)
    return stm, idx

def main(path, out, seed=1, holdout=0.1):
    idx_rows, scores, results, held, games = [], [], [], [], []
    pending = []
    ngame = 0
    with open(path) as f:
        for line in f:
            if line.startswith('# game '):
                k = int(line.split()[2])
                key = splitmix(seed ^ splitmix(k))
                hold = (key >> 11) / float(1 << 53) < holdout
                for stm, idx, sc, res in pending:
                    row = idx + [200] * (40 - len(idx))
                    idx_rows.append(row[:40])
                    scores.append(sc)
                    results.append(res if stm == 'W' else 1.0 - res)
                    held.append(hold)
                    games.append(ngame)
                pending = []
                ngame += 1
                continue
            if line.startswith('#') or not line.strip():
                continue
            fen, sc, res = line.rstrip('\n').split('\t')
            stm, idx = encode(fen)
            pending.append((stm, idx, int(sc), float(res)))
    np.savez(out, idx=np.array(idx_rows, dtype=np.uint8), score=np.array(scores, dtype=np.float32),
             result=np.array(results, dtype=np.float32), held=np.array(held, dtype=bool),
             game=np.array(games, dtype=np.int32))
    print(f'{ngame} games, {len(scores)} positions, {sum(held)} held out', file=sys.stderr)

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
