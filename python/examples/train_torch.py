"""Train a gnubg contact net in PyTorch on a rollout dataset, through bgkit, write it
as gnubg weights and duel it against pubeval with the `trainer` CLI.

Steps (each printed as it runs):

1. data: `datasets sample` self-play positions, `datasets rollout` labels them
   (cubeless rollouts) into WORK/data.bgds (skipped when that is there from an earlier
   run; its intermediate WORK/positions.csv is the script's own and is replaced);
2. inputs: the `.bgds` file mapped with bgkit.Dataset (no copy); its contact rows
   split into training and validation; mini-batches of gnubg's 250 contact inputs
   and the five rollout probabilities from Dataset.batches (seeded, the trainer's
   epoch order);
3. model: gnubg's net shape (250 inputs, --hidden sigmoid units with slope 0.1, 5
   sigmoid outputs), trained with Adam on the mean squared error;
4. weights: the arrays go into bgkit.Net, replace the contact net of gnubg's
   weights (race, crashed and pruning nets stay gnubg's) and are written as a gnubg
   `.wd`; bgkit.Evaluator on that file is checked against the PyTorch model;
5. duel: `trainer duel --a NET.wd --b pubeval` (duplicate dice).

torch is needed by this example only (`pip install torch`).

    python python/examples/train_torch.py --bin target/release --work /tmp/torch-run
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

import bgkit

GNUBG_WD = "/usr/lib/gnubg/gnubg.wd"


def run(cmd):
    print("$", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, capture_output=True, text=True).stdout


class GnubgNet(torch.nn.Module):
    """gnubg's net: hidden = sigmoid(0.1 * (x W1 + b1)), out = sigmoid(h W2^T + b2)."""

    def __init__(self, inputs, hidden):
        super().__init__()
        # Uniform Xavier bounds for the effective (slope-scaled) weights.
        a1 = (6 / (inputs + hidden)) ** 0.5 / 0.1
        a2 = (6 / (hidden + 5)) ** 0.5
        self.w1 = torch.nn.Parameter(torch.empty(inputs, hidden).uniform_(-a1, a1))
        self.b1 = torch.nn.Parameter(torch.zeros(hidden))
        self.w2 = torch.nn.Parameter(torch.empty(5, hidden).uniform_(-a2, a2))
        self.b2 = torch.nn.Parameter(torch.zeros(5))

    def forward(self, x):
        h = torch.sigmoid(0.1 * (x @ self.w1 + self.b1))
        return torch.sigmoid(h @ self.w2.T + self.b2)

    def to_bgkit(self):
        f = lambda t: t.detach().numpy().astype(np.float32)  # noqa: E731
        return bgkit.Net(f(self.w1), f(self.b1), f(self.w2), f(self.b2), beta_hidden=0.1, beta_output=1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release", help="directory of the bgkit CLI tools")
    ap.add_argument("--work", default="torch-run", help="directory for the data and the net")
    ap.add_argument("--games", type=int, default=60, help="self-play games of `datasets sample`")
    ap.add_argument("--trials", type=int, default=36, help="rollout trials per position")
    ap.add_argument("--truncate", type=int, default=10, help="rollout truncation (half-moves)")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--duel-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true", help="replace WORK/torch-contact.wd if it exists")
    a = ap.parse_args()
    bindir, work = Path(a.bin), Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    out = work / "torch-contact.wd"
    # The net is the user's result: refused before any work, not after the training.
    if out.exists() and not a.force:
        sys.exit(f"train_torch.py: {out} exists (give --force to replace it)")
    torch.manual_seed(a.seed)
    # Small nets and batches: one thread is fastest (and leaves the cores to bgkit).
    torch.set_num_threads(1)

    # 1. data
    data = work / "data.bgds"
    if not data.exists():
        t = time.time()
        run([bindir / "datasets", "sample", "--games", a.games, "--seed", a.seed, "-o", work / "positions.csv",
             "--quiet", "--force"])
        run([bindir / "datasets", "rollout", "--input", work / "positions.csv", "--trials", a.trials,
             "--truncate", a.truncate, "--seed", a.seed, "-o", data, "--quiet", "--force"])
        print(f"data: {time.time() - t:.0f} s")

    # 2. inputs
    ds = bgkit.Dataset(data)
    contact = np.flatnonzero(ds.classes == 10)
    rng = np.random.default_rng(a.seed)
    val = np.sort(rng.choice(contact, size=max(1, len(contact) // 10), replace=False))
    train = np.setdiff1d(contact, val)
    print(f"dataset: {len(ds)} positions, {len(contact)} contact: {len(train)} training, {len(val)} validation")
    x_val = torch.from_numpy(bgkit.inputs(ds.boards(val), net="contact"))
    y_val = torch.from_numpy(np.array(ds.probs[val]))

    # 3. model
    model = GnubgNet(250, a.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    t = time.time()
    for epoch in range(a.epochs):
        for _, x, y in ds.batches(a.batch, seed=a.seed, epoch=epoch, net="contact", indices=train):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(torch.from_numpy(x)), torch.from_numpy(y))
            loss.backward()
            opt.step()
        if epoch % max(1, a.epochs // 5) == 0 or epoch == a.epochs - 1:
            with torch.no_grad():
                v = torch.nn.functional.mse_loss(model(x_val), y_val).item()
            print(f"epoch {epoch + 1}: training batch mse {loss.item():.5f}, validation mse {v:.5f}", flush=True)
    print(f"training: {time.time() - t:.0f} s")

    # 4. weights
    weights = bgkit.Weights.load(GNUBG_WD).replace("contact", model.to_bgkit())
    weights.save(out, force=a.force)
    print(f"wrote {out}: {weights}")
    ours = bgkit.Evaluator(out).evaluate(ds.boards(val))
    with torch.no_grad():
        torch_p = model(x_val).numpy()
    gnubg = bgkit.Evaluator(GNUBG_WD).evaluate(ds.boards(val))
    print(f"validation, bgkit evaluator on the written file vs the PyTorch model: "
          f"mean |diff| {np.abs(ours - torch_p).mean():.5f} (gnubg's sigmoid and corrections)")
    mse = lambda p: float(((p - y_val.numpy()) ** 2).mean())  # noqa: E731
    print(f"validation mse against the rollouts: written net {mse(ours):.5f}, gnubg's own net {mse(gnubg):.5f}")

    # 5. duel
    duel = run([bindir / "trainer", "duel", "--a", f"torch={out}", "--b", "pubeval", "--games", a.duel_games,
                "--seed", a.seed, "--json", "--quiet"])
    j = json.loads(duel)
    print(json.dumps(j))
    se = "no SE (one dice pair)" if j.get("se") is None else f"± {j['se']:.3f}"
    print(f"duel: torch net vs pubeval, {j.get('games')} games: {j.get('ppg'):+.3f} {se} ppg")


if __name__ == "__main__":
    sys.exit(main())
