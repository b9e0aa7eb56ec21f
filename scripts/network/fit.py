# A small network on the prepared arrays: 200 piece-square inputs (side to move's view) -> H
# (clipped ReLU) -> H2 (clipped ReLU) -> 1 logit. Adam on the cross-entropy against
# lambda*result + (1-lambda)*sigmoid(score/K); the held-out loss is against the results,
# as `tempo train` prints it. H=0 fits a linear piece-square table.
import sys, time, math, argparse, numpy as np

ap = argparse.ArgumentParser()
ap.add_argument('data')
ap.add_argument('--hidden', type=int, default=128)
ap.add_argument('--hidden2', type=int, default=32)
ap.add_argument('--epochs', type=int, default=8)
ap.add_argument('--batch', type=int, default=4096)
ap.add_argument('--lr', type=float, default=1e-3)
ap.add_argument('--lam', type=float, default=0.7)
ap.add_argument('--k', type=float, default=0)
ap.add_argument('--l2', type=float, default=0)
ap.add_argument('--max', type=int, default=0)
ap.add_argument('--max-train', type=int, default=0)
ap.add_argument('--tag', default='')
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--init', default='', help="start from this fit's .npz (same shape) instead of random weights")
a = ap.parse_args()

d = np.load(a.data)
idx, score, result, held = d['idx'], d['score'], d['result'], d['held']
if a.max:
    idx, score, result, held = idx[:a.max], score[:a.max], result[:a.max], held[:a.max]
tr, ho = np.where(~held)[0], np.where(held)[0]
if a.max_train:
    tr = tr[:a.max_train]
print(f'{len(tr)} training, {len(ho)} held-out positions', flush=True)

def sig(x):
    return 1 / (1 + np.exp(-np.clip(x, -60, 60)))

def ce(p, t):
    p = np.clip(np.asarray(p, np.float64), 1e-12, 1 - 1e-12)
    t = np.asarray(t, np.float64)
    return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))

k = a.k
if not k:
    lo, hi = math.log(20), math.log(5000)
    g = (5 ** 0.5 - 1) / 2
    f = lambda lk: ce(sig(score[tr] / math.exp(lk)), result[tr])
    for _ in range(60):
        c, dd = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(c) < f(dd):
            hi = dd
        else:
            lo = c
    k = math.exp((lo + hi) / 2)
target = (a.lam * result + (1 - a.lam) * sig(score / k)).astype(np.float32)
print(f'K {k:.1f}; search score held-out loss {ce(sig(score[ho] / k), result[ho]):.5f}', flush=True)

rng = np.random.default_rng(a.seed)
NI = 201  # 200 inputs and a padding column
H, H2 = a.hidden, a.hidden2
ACTIVE = 36  # about as many inputs are on in a position (pieces on the board)
def init(n_in, n_out):
    # He-like scale by the inputs that are on: all of them in the later layers, the pieces in the first.
    fan = ACTIVE if n_in == NI else n_in
    return (rng.standard_normal((n_in, n_out)) * math.sqrt((2 if n_in == NI else 1) / fan)).astype(np.float32)
if H:
    P = {'W1': init(NI, H), 'b1': np.full(H, 0.1, np.float32), 'W2': init(H, H2), 'b2': np.zeros(H2, np.float32),
         'W3': init(H2, 1) * 0.1, 'b3': np.zeros(1, np.float32)}
else:
    P = {'W1': np.zeros((NI, 1), np.float32), 'b1': np.zeros(1, np.float32)}
if a.init:
    # A warm start: the data of one run does not outlive its machine, the fitted weights do, so a
    # later run refines them on its own positions.
    Q = np.load(a.init)
    assert all(Q[n].shape == P[n].shape for n in P), 'the --init network has another shape'
    P = {n: Q[n].astype(np.float32) for n in P}
    print(f'from {a.init}', flush=True)
M = {n: np.zeros_like(v) for n, v in P.items()}
V = {n: np.zeros_like(v) for n, v in P.items()}

def dense(rows):
    x = np.zeros((len(rows), NI), np.float32)
    x[np.arange(len(rows))[:, None], idx[rows]] = 1
    x[:, 200] = 0
    return x

def forward(x):
    if not H:
        return (x @ P['W1'] + P['b1'])[:, 0], None
    z1 = x @ P['W1'] + P['b1']; h1 = np.clip(z1, 0, 1)
    z2 = h1 @ P['W2'] + P['b2']; h2 = np.clip(z2, 0, 1)
    out = (h2 @ P['W3'] + P['b3'])[:, 0]
    return out, (z1, h1, z2, h2)

def evaluate(rows):
    ps = []
    for s in range(0, len(rows), 65536):
        r = rows[s:s + 65536]
        ps.append(sig(forward(dense(r))[0]))
    p = np.concatenate(ps)
    return ce(p, result[rows]), ce(p, target[rows])

step = 0
b1, b2, eps = 0.9, 0.999, 1e-8
t0 = time.time()
for ep in range(a.epochs):
    lr = a.lr * (1 - 0.9 * ep / max(1, a.epochs - 1))
    perm = rng.permutation(tr)
    for s in range(0, len(perm), a.batch):
        r = perm[s:s + a.batch]
        x = dense(r)
        out, cache = forward(x)
        g = (sig(out) - target[r]) / len(r)  # d loss / d logit
        G = {}
        if not H:
            G['W1'] = x.T @ g[:, None]; G['b1'] = np.array([g.sum()], np.float32)
        else:
            z1, h1, z2, h2 = cache
            G['W3'] = h2.T @ g[:, None]; G['b3'] = np.array([g.sum()], np.float32)
            d2 = (g[:, None] @ P['W3'].T) * ((z2 > 0) & (z2 < 1))
            G['W2'] = h1.T @ d2; G['b2'] = d2.sum(0)
            d1 = (d2 @ P['W2'].T) * ((z1 > 0) & (z1 < 1))
            G['W1'] = x.T @ d1; G['b1'] = d1.sum(0)
        step += 1
        for n in P:
            gr = G[n].astype(np.float32)
            if a.l2 and n.startswith('W'):
                gr = gr + a.l2 * P[n]
            M[n] = b1 * M[n] + (1 - b1) * gr
            V[n] = b2 * V[n] + (1 - b2) * gr * gr
            mh = M[n] / (1 - b1 ** step); vh = V[n] / (1 - b2 ** step)
            P[n] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
    hr, _ = evaluate(ho)
    sub = tr[:: max(1, len(tr) // 500000)]
    trr, trt = evaluate(sub)
    print(f'epoch {ep + 1}: held-out loss against results {hr:.5f}; training (sample) {trr:.5f} against results, '
          f'{trt:.5f} against targets; {time.time() - t0:.0f} s', flush=True)
np.savez(f'net-{H}-{H2}{a.tag}.npz', **P)
