"""Prototype of lambda-return labels (the lam08 variant of rounds.sh), with the bgkit
Python module: GAMES self-play games of NET at 0 ply (a uniformly random move with
probability 0.05), each game's positions from the start to the first exact one (bearoff
or finished), every net position labelled by NET's own 1-ply (`datasets label`), then
backwards from the game's exact end: G_t = (1 - lambda) v_t + lambda invert(G_t+1), the
trace cut (G_t = v_t) where a random move was played. Writes a CSV dataset of the net
positions (repeats included: each game's return counts).

    python lambda_returns.py NET GAMES SEED LAMBDA OUT.csv BIN DATA_DIR
"""

import os
import random
import subprocess
import sys

import numpy as np

import bgkit

net, games, seed, lam, out, bindir, data = sys.argv[1:8]
games, seed, lam = int(games), int(seed), float(lam)
os_db, ts_db = os.path.join(data, "gnubg_os0.bd"), os.path.join(data, "gnubg_ts0.bd")
ev = bgkit.Evaluator(net, bearoff_os=os_db, bearoff_ts=ts_db)
rng = random.Random(seed)
NET_CLASSES = {8, 9, 10}  # race, crashed, contact
trajectories = []
for _ in range(games):
    pos, first, positions, randoms = bgkit.Position.start(), True, [], []
    while len(positions) < 2000:
        if int(ev.classes([pos])[0]) not in NET_CLASSES:
            break
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if not (first and d1 == d2):
                break
        first = False
        moves = pos.legal_moves(d1, d2)
        random_move = len(moves) > 1 and rng.random() < 0.05
        if random_move:
            nxt = moves[rng.randrange(len(moves))].result
        elif not moves:
            nxt = pos
        else:
            nxt = ev.best_move(pos, d1, d2)[0].result
        positions.append(pos)
        randoms.append(random_move)
        pos = nxt.swapped()
    trajectories.append((positions, randoms, pos))
ids = sorted({p.position_id for t in trajectories for p in t[0]})
with open(out + ".ids.csv", "w") as f:
    f.write("position_id\n" + "\n".join(ids) + "\n")
subprocess.run([os.path.join(bindir, "datasets"), "label", "--weights", net, "--input", out + ".ids.csv",
                "-o", out + ".l1.bgds", "--plies", "1", "--quiet", "--force", "--bearoff-os", os_db,
                "--bearoff-ts", ts_db], check=True)
ds = bgkit.Dataset(out + ".l1.bgds")
label = dict(zip(ds.position_ids(), np.array(ds.probs, dtype=np.float64)))


def invert(p):
    return np.array([1 - p[0], p[3], p[4], p[1], p[2]])


with open(out, "w") as f:
    f.write("position_id,win,win_g,win_bg,lose_g,lose_bg\n")
    for positions, randoms, end in trajectories:
        g = ev.evaluate([end], 0)[0].astype(np.float64)  # exact: bearoff or finished
        rows = []
        for p, random_move in zip(reversed(positions), reversed(randoms)):
            v = label[p.position_id]
            g = v if random_move else (1 - lam) * v + lam * invert(g)
            rows.append((p.position_id, np.clip(g, 0, 1)))
        for pid, y in reversed(rows):
            f.write(pid + "," + ",".join("%.6f" % x for x in y) + "\n")
