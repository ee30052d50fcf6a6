#!/usr/bin/env python3
"""Adversarial inputs of growing size: does doubling a file at most double uplint's time and memory?

For each form below, a file of size n, 2n, 4n, 8n is scanned alone by the release binary
(`uplint scan --no-config --format json FILE`); the wall time and the peak RSS (best of five) (GNU time's %M,
so that this script's own memory is not counted) are printed with the growth ratio of each
doubling (the smallest size is doubled first until a scan takes 100 ms). Time and memory are taken above the baseline of a tiny file (process start, the
embedded catalog), with a floor (20 ms, 4 MiB) under which a ratio is noise. The verdict is
taken over the whole span, where single timings of a loaded machine weigh least: 8n against n
above 8 x 1.25 = 10 (doubling at most doubles, +-25 %) is superlinear: the form is marked and
the exit status is 1. Memory at 8n is judged less the freed memory uplint keeps on purpose
(`keep_freed_memory` in src/main.rs: up to 64 MiB, and blocks under 32 MiB served from the heap,
where a growing block is copied, not remapped): a constant, not growth, which the per-doubling
ratios printed still show (a step of about 3 at one doubling in the forms of millions of
small allocations).

Usage: scripts/adversarial-bench.py [--bin target/release/uplint] [--scale 1.0] [FORM ...]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

SPAN_LIMIT = 8 * 1.25
MIN_TIME = 0.100
TIME_FLOOR = 0.020
RSS_FLOOR = 4 * 1024  # KiB
KEPT_FREE = 64 * 1024  # KiB: M_TRIM_THRESHOLD of src/main.rs

CI = "job:\n  script:\n    - "
JWT = "$CI_JOB_JWT "

# (name, file name, generator of about n bytes, n at the smallest size)
FORMS = [
    # The forms.
    ("unclosed-subst.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "$( " * (n // 3), 150_000),
    ("unclosed-subst.ci", ".gitlab-ci.yml", lambda n: CI + "gitlab-runner register --locked " + "$( " * (n // 3), 150_000),
    ("variable-line.sh", "run.sh", lambda n: "echo " + JWT * (n // 12) + "\n", 120_000),
    ("variable-line.ci", ".gitlab-ci.yml", lambda n: CI + "echo " + JWT * (n // 12) + "\n", 120_000),
    ("long-command-line.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "x " * (n // 2) + "\n", 1_000_000),
    # Others: quotes, groups, comments, continuations, flags, structure.
    ("unclosed-template.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "{{ " * (n // 3), 150_000),
    ("unclosed-jinja.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "{% " * (n // 3), 150_000),
    ("closed-subst.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "$(a) " * (n // 5), 150_000),
    ("single-quotes.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "'x " * (n // 3), 150_000),
    ("backticks.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "`x " * (n // 3), 150_000),
    ("hashes.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "# " * (n // 2), 150_000),
    ("semicolons.conf", "runner.conf", lambda n: "ExecStart=gitlab-runner register --locked " + "; " * (n // 2), 150_000),
    ("flags-line.sh", "run.sh", lambda n: "gitlab-runner register " + "--locked " * (n // 9) + "\n", 120_000),
    ("dashes.sh", "run.sh", lambda n: "gitlab-runner register --locked " + "-" * n + "\n", 1_000_000),
    ("continuations.sh", "run.sh", lambda n: "gitlab-runner register --locked \\\n" + "  x \\\n" * (n // 6) + "\n", 500_000),
    ("program-lines.sh", "run.sh", lambda n: "gitlab-runner register --locked\n" * (n // 32), 500_000),
    ("list-items.ci", ".gitlab-ci.yml", lambda n: "job:\n  script:\n" + "    - echo $CI_JOB_JWT\n" * (n // 23), 250_000),
    ("flow-sequence.ci", ".gitlab-ci.yml", lambda n: "job:\n  script: [" + "\"echo $CI_JOB_JWT\", " * (n // 20) + "]\n", 250_000),
    ("helm-values", "values.yaml", lambda n: "runners:\n  config: |\n" + "    [[runners]]\n      executor = \"docker\"\n" * (n // 44), 250_000),
    ("runner-toml", "config.toml", lambda n: "[[runners]]\n" + "  token = \"x\"\n" * (n // 14), 250_000),
    ("graphql-braces", "q.graphql", lambda n: "query { " + "{ a " * (n // 4), 250_000),
    ("gql-tags.ts", "q.ts", lambda n: "gql`query { project { mergeRequest { mergeStatus } } }`;\n" * (n // 56), 250_000),
    ("json-dashboard", "dashboards/geo.json", lambda n: "{\"expr\": [" + "\"geo_repositories_synced\", " * (n // 27) + "\"x\"]}\n", 250_000),
    # Several commands on one logical line, each in a quote or a substitution, or one per
    # continued line: each line is read once for all its commands.
    ("commands-one-line.sh", "run.sh", lambda n: "gitlab-runner register --locked " * (n // 32) + "\n", 250_000),
    ("quoted-commands.sh", "run.sh", lambda n: "gitlab-runner register --locked \"" * (n // 33) + "\n", 250_000),
    ("subst-commands.sh", "run.sh", lambda n: "gitlab-runner register --locked $( " * (n // 35) + "\n", 250_000),
    ("commands-one-line.ci", ".gitlab-ci.yml", lambda n: CI + "gitlab-runner register --locked " * (n // 32) + "\n", 250_000),
    ("continued-commands.sh", "run.sh", lambda n: "gitlab-runner register --locked \\\n" * (n // 34) + "\n", 250_000),
    ("rest-paths-line.rb", "client.rb", lambda n: "get(\"/api/v4/runners/reset_registration_token\") " * (n // 50), 100_000),
    ("rest-paths-line.js", "client.js", lambda n: "await api.post(`/api/v4/runners`, {token}); " * (n // 45), 100_000),
    ("field-reads-line.py", "client.py", lambda n: "# gitlab /merge_requests\nmr = get_mr()\n" + "mr.get(\"merge_status\") " * (n // 23) + "\n", 250_000),
    ("struct-tags-line.go", "client.go", lambda n: "// gitlab merge_requests\ntype gitlabMR struct { " + "MergedBy int `json:\"merged_by\"` " * (n // 32) + "}\n", 250_000),
    # Flags a script gathers in a variable before the command (each asks whether the variable
    # is handed to the program: the file is read once per variable, not once per flag).
    ("gathered-flags.sh", "run.sh", lambda n: "OPTS=\"$OPTS --tag-list t\"\n" * (n // 28) + "gitlab-runner register $OPTS\n", 100_000),
    ("struct-tags-lines.go", "client.go", lambda n: "// gitlab merge_requests\ntype gitlabMR struct {\n" + "\tMergedBy int `json:\"merged_by\"`\n" * (n // 32) + "}\n", 250_000),
]

# Forms known to be superlinear, run with --all: none today.
OPEN = []


def measure(binary, path):
    """(seconds, peak RSS in KiB) of one scan."""
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name, binary, "scan", "--no-config", "--format", "json", path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            sys.exit(f"{path}: exit {proc.returncode}: {proc.stderr.decode(errors='replace')[:500]}")
        return elapsed, int(rss.read().split()[-1])


def best(binary, path, runs=5):
    results = [measure(binary, path) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results)


def ratio(a, b, base, floor):
    return max(b - base, floor) / max(a - base, floor)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "uplint"))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every size by this")
    ap.add_argument("--all", action="store_true", help="also run the forms known to be open")
    ap.add_argument("forms", nargs="*")
    args = ap.parse_args()
    forms = FORMS + (OPEN if args.all else [])
    if args.forms:
        forms = [f for f in FORMS + OPEN if f[0] in args.forms]
    work = tempfile.mkdtemp(prefix="uplint-adversarial-")
    tiny = os.path.join(work, "tiny.sh")
    with open(tiny, "w") as f:
        f.write("echo $CI_JOB_JWT\n")
    base_t, base_rss = best(args.bin, tiny)
    print(f"baseline (tiny file): {base_t * 1000:.1f} ms, {base_rss / 1024:.1f} MiB; limit over 8x {SPAN_LIMIT}")
    print(f"{'form':24} {'size':>9} {'time':>9} {'ratio':>6} {'peak RSS':>10} {'ratio':>6}")
    worst = []
    for name, fname, gen, n0 in forms:
        d = os.path.join(work, name)
        path = os.path.join(d, fname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        prev = first = None
        # The smallest size is doubled until its scan takes 100 ms above the baseline (at most
        # 16 times): under that, start-up and the machine's noise weigh more than the growth.
        n = int(n0 * args.scale)
        for _ in range(4):
            with open(path, "w") as f:
                f.write(gen(n))
            if measure(args.bin, path)[0] - base_t >= MIN_TIME:
                break
            n *= 2
        for k in range(4):
            with open(path, "w") as f:
                f.write(gen(n * 2**k))
            size = os.path.getsize(path)
            t, rss = best(args.bin, path)
            if prev is None:
                rt = rm = ""
            else:
                r_t = ratio(prev[0], t, base_t, TIME_FLOOR)
                r_m = ratio(prev[1], rss, base_rss, RSS_FLOOR)
                rt, rm = f"{r_t:.2f}", f"{r_m:.2f}"
            print(f"{name if k == 0 else '':24} {size / 1e6:8.2f}M {t * 1000:7.0f}ms {rt:>6} {rss / 1024:8.1f}Mi {rm:>6}", flush=True)
            prev = (t, rss)
            first = first or prev
        s_t = ratio(first[0], prev[0], base_t, TIME_FLOOR)
        s_m = ratio(first[1], max(prev[1] - KEPT_FREE, first[1]), base_rss, RSS_FLOOR)
        bad = s_t > SPAN_LIMIT or s_m > SPAN_LIMIT
        print(f"{'':24} {'8n / n':>10} {'':>9} {s_t:6.2f} {'':>10} {s_m:6.2f}")
        if bad:
            worst.append(name)
            print(f"  ^ superlinear: {name}")
    if worst:
        print(f"SUPERLINEAR: {', '.join(worst)}")
        return 1
    print(f"all forms linear (8x the input at most x{SPAN_LIMIT} in time and memory above the baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
