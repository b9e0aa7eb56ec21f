# Writes a numpy network (fit.py's .npz) as a TEMPONN1 file for the `net` branch's TEMPO_NET.
import sys, struct, numpy as np
P = np.load(sys.argv[1])
k = float(sys.argv[3])
W1, b1, W2, b2, W3, b3 = (P[n].astype('<f4') for n in ('W1', 'b1', 'W2', 'b2', 'W3', 'b3'))
W1 = W1[:200]  # the padding row is never active
h1, h2 = W1.shape[1], W2.shape[1]
with open(sys.argv[2], 'wb') as f:
    f.write(b'TEMPONN1' + struct.pack('<IIIf', 200, h1, h2, k))
    for a in (W1, b1, W2.T.copy(), b2, W3[:, 0], b3):
        f.write(np.ascontiguousarray(a, '<f4').tobytes())
print(f'{h1}x{h2}, k {k}')
