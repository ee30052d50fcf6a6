#!/usr/bin/env python3
"""Benchmark uplint against ripgrep doing the same work.

    python3 scripts/bench.py [TREE] [--runs N] [--scale]

Without TREE, a corpus of 20,000 files (~200 MB) is generated once (deterministic, seed 1) under
target/bench/. LITERALS is every literal the data detects (`uplint query --literals`). After a
warm-up, these run in alternation, N times each:

    uplint scan --no-config --format json TREE
    rg --hidden -F -c NEVER TREE      (the floor: walk + read + a trivial search, honouring
                                       ignore files; NEVER is a literal found in no file)
    rg --hidden -F -w -f LITERALS TREE
    rg --hidden -F -f LITERALS TREE

and the script prints medians, the ratios uplint/rg and uplint/floor (the median of the
per-run ratios of paired runs: each uplint run and the floor run right after it), files per
second and peak RSS
(/usr/bin/time). It also times a one-file scan (the pre-commit case) and `uplint query`,
spawned directly, beside the time it takes to spawn `/bin/true`.
--scale runs the scan at 1x, 4x and 16x the default tree and checks that time grows linearly
and memory stays flat. Needs ripgrep (`apt-get install ripgrep`) and /usr/bin/time.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UPLINT = os.path.join(ROOT, "target", "dist", "uplint")
GEN = os.path.join(ROOT, "target", "dist", "examples", "gen_corpus")


def sh(args, **kw):
    return subprocess.run(args, check=True, **kw)


def build():
    sh(["cargo", "build", "--profile", "dist", "--locked", "--quiet"], cwd=ROOT)
    sh(["cargo", "build", "--profile", "dist", "--locked", "--quiet", "--example", "gen_corpus"], cwd=ROOT)


def corpus(files):
    out = os.path.join(ROOT, "target", "bench", f"corpus-{files}")
    if not os.path.isdir(out):
        sh([GEN, out, "--files", str(files), "--seed", "1"])
    return out


def count_files(tree):
    return sum(len(f) for _, _, f in os.walk(tree))


def tree_bytes(tree):
    """Bytes of the tree's files (links not followed: a real tree may hold dangling ones)."""
    return sum(os.lstat(os.path.join(d, x)).st_size for d, _, fs in os.walk(tree) for x in fs)


def run(cmd, cpu=False):
    """Wall time (s) and peak RSS (MB) of one run (and CPU seconds, user + system, if asked);
    output discarded."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    # uplint exits 1 on findings, rg 1 on no match: both fine.
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({p.returncode}): {p.stderr[-500:]}")
    rss_kb, user, system = p.stderr.strip().splitlines()[-1].split()
    if cpu:
        return wall, int(rss_kb) / 1024, float(user) + float(system)
    return wall, int(rss_kb) / 1024


# A literal that occurs in no file of any tree this script measures (it is not in this file
# either: it is put together at run time).
NEVER = "uplint-floor-" + "zq" * 8


def compare(tree, runs, literals):
    cmds = {
        "uplint": [UPLINT, "scan", "--no-config", "--format", "json", tree],
        # Right after uplint, so that each pair of runs meets the machine in the same state
        # (the two `rg -f` runs between them took two seconds).
        "floor": ["rg", "--hidden", "-F", "-c", NEVER, tree],
        "rg -F -w": ["rg", "--hidden", "-F", "-w", "-f", literals, tree],
        "rg -F": ["rg", "--hidden", "-F", "-f", literals, tree],
    }
    for c in cmds.values():  # warm-up: the tree in the page cache, binaries loaded
        run(c)
    times = {k: [] for k in cmds}
    rss = {k: [] for k in cmds}
    for _ in range(runs):
        for k, c in cmds.items():
            w, m = run(c)
            times[k].append(w)
            rss[k].append(m)
    medians = {k: (statistics.median(times[k]), max(rss[k])) for k in cmds}
    # Paired: each run of uplint against the floor run right after it.
    paired = statistics.median(u / f for u, f in zip(times["uplint"], times["floor"]))
    return medians, paired


def latency(cmd, runs=30):
    """Median wall time of a short command, spawned directly (no /usr/bin/time around it, whose
    own start would be counted); output discarded."""
    def once():
        t = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        if p.returncode not in (0, 1):
            sys.exit(f"{cmd[0]} failed ({p.returncode})")
        return wall
    once()
    return statistics.median(once() for _ in range(runs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", action="store_true")
    a = ap.parse_args()
    if not shutil.which("rg"):
        sys.exit("ripgrep is needed: apt-get install ripgrep (or cargo install --locked ripgrep)")
    build()
    literals = os.path.join(ROOT, "target", "bench", "literals.txt")
    os.makedirs(os.path.dirname(literals), exist_ok=True)
    with open(literals, "w") as f:
        sh([UPLINT, "query", "--literals"], stdout=f)
    tree = a.tree or corpus(20_000)
    n = count_files(tree)
    size = tree_bytes(tree)
    print(f"machine: {os.cpu_count()} cores; tree: {tree}, {n} files, {size // 1_000_000} MB; "
          f"{sum(1 for _ in open(literals))} literals; {a.runs} runs each, medians")
    r, paired = compare(tree, a.runs, literals)
    for k, (t, m) in r.items():
        print(f"  {k:<10} {t:7.3f} s   {n / t:9.0f} files/s   peak RSS {m:6.1f} MB")
    u = r["uplint"][0]
    print(f"  uplint / rg -F -w = {u / r['rg -F -w'][0]:.2f}   uplint / rg -F = {u / r['rg -F'][0]:.2f}"
          f"   uplint / floor = {paired:.2f} (paired)")

    one = os.path.join(tree, ".gitlab-ci.yml")
    if not os.path.exists(one):
        one = next(os.path.join(d, x) for d, _, fs in os.walk(tree) for x in fs if x.endswith(".yml"))
    single = latency([UPLINT, "scan", "--no-config", "--format", "concise", one])
    query = latency([UPLINT, "query", "--from", "16.5", "--to", "17.0", "--format", "json"])
    spawn = latency(["/bin/true"])
    print(f"  one-file scan {single * 1000:.1f} ms   query {query * 1000:.1f} ms   (medians of 30, "
          f"spawned from Python; spawning /bin/true takes {spawn * 1000:.1f} ms of that)")

    if a.scale:
        print("scaling (medians; CPU = user + system seconds):")
        base = None
        for factor in (1, 4, 16):
            t = corpus(20_000 * factor)
            scan = [UPLINT, "scan", "--no-config", "--format", "json", t]
            rg = ["rg", "--hidden", "-F", "-f", literals, t]
            run(scan)
            walls, cpus, peak, rgs = [], [], 0.0, []
            for _ in range(a.runs):
                w, m, c = run(scan, cpu=True)
                walls.append(w)
                cpus.append(c)
                peak = max(peak, m)
                rgs.append(run(rg)[0])
            wall, cpu, rgw = statistics.median(walls), statistics.median(cpus), statistics.median(rgs)
            base = base or (wall, cpu, peak, rgw)
            print(f"  {factor:>2}x {count_files(t):7d} files  wall {wall:6.2f} s ({wall / base[0]:5.2f}x)"
                  f"  CPU {cpu:6.2f} s ({cpu / base[1]:5.2f}x)  peak RSS {peak:5.1f} MB ({peak / base[2]:4.2f}x)"
                  f"  | rg -F wall {rgw:6.2f} s ({rgw / base[3]:5.2f}x)")


if __name__ == "__main__":
    main()
