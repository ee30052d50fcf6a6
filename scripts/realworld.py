#!/usr/bin/env python3
"""Score `uplint scan` on real public files kept in a local cache.

The files themselves are never part of this repository: tests/realworld/manifest.yaml
records where each one comes from (repository, path, commit) and what a perfect scan
reports on it; the texts live in a cache folder outside the repository (see
tests/realworld/README.md for how to fill it).

For every repository in the manifest the script runs, from the repository's folder
in the cache so that relative paths and file names are the original ones,

    uplint scan --format json --no-config --target 18.0 --api v5 FILE...

and compares the findings (line + entry id) with the manifest:

- a finding on an expected line whose id is one of the expected ids is a true positive
  (an expected line is counted once, however many accepted findings it has);
- an expected line without such a finding is a false negative;
- a finding on a line listed under `tolerated` (a grey zone: neither right nor wrong)
  is ignored, and so is a finding of another entry on an expected line that has its
  expected finding (the labels give one entry a line: `register --registration-token T
  --tag-list x` is labelled with the token's entry, and the flag's finding on it is not
  counted either way; a finding of another entry alone on an expected line is a false
  positive and the line a false negative);
- every other finding is a false positive (those on a listed look-alike line are
  marked as such).

It prints precision and recall per category and overall, then the false positives and
the false negatives. It is a measurement: the exit status is 0 unless the manifest or
the binary cannot be read. No network access.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

SCAN_ARGS = ["scan", "--format", "json", "--no-config", "--target", "18.0", "--api", "v5"]


def default_cache() -> Path:
    home = Path.home() / ".cache" / "uplint-realworld"
    if home.is_dir():
        return home
    return Path("/work/realworld-cache")


def load_manifest(path: Path) -> list[dict]:
    try:
        import yaml  # type: ignore
    except ImportError:
        sys.exit("realworld.py needs PyYAML (pip install pyyaml) to read the manifest")
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        sys.exit(f"{path}: expected a mapping with a `files:` list")
    for i, entry in enumerate(files):
        for key in ("repo", "path", "category", "cached_as"):
            if not isinstance(entry.get(key), str):
                sys.exit(f"{path}: files[{i}] lacks the string field `{key}`")
    return files


def accepted_ids(item: dict) -> set[str]:
    ids = item["id"]
    return {ids} if isinstance(ids, str) else set(ids)


def tolerated_lines(entry: dict) -> set[int]:
    lines: set[int] = set()
    for item in entry.get("tolerated") or []:
        if "range" in item:
            start, end = item["range"]
            lines.update(range(start, end + 1))
        else:
            lines.add(item["line"])
    return lines


def repo_root(cache: Path, entry: dict) -> Path:
    """The folder of the file's repository in the cache: cached_as minus the path."""
    cached = Path(entry["cached_as"])
    parts = cached.parts[: len(cached.parts) - len(Path(entry["path"]).parts)]
    return cache.joinpath(*parts)


def scan(binary: str, root: Path, paths: list[str]) -> dict[str, list[dict]]:
    proc = subprocess.run(
        [binary, *SCAN_ARGS, *paths], cwd=root, capture_output=True, text=True
    )
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print(f"warning: no JSON from uplint in {root} (status {proc.returncode}): "
              f"{proc.stderr.strip()[:300]}", file=sys.stderr)
        return {}
    by_path: dict[str, list[dict]] = defaultdict(list)
    for finding in report.get("findings", []):
        by_path[os.path.normpath(finding["path"])].append(finding)
    for err in report.get("errors", []):
        print(f"warning: uplint error in {root}: {err}", file=sys.stderr)
    return by_path


def local_clone(mirrors: Path, repo: str) -> Path | None:
    owner, name = repo.split("/", 1)
    for candidate in (mirrors / f"{owner}+{name}" / "repo", mirrors / owner / name,
                      mirrors / owner / f"{name}.git"):
        if candidate.is_dir():
            return candidate
    return None


def fill_cache(files: list[dict], cache: Path, mirrors: Path) -> None:
    """Copy each missing file out of a local clone at its recorded commit (no network)."""
    copied = 0
    for entry in files:
        target = cache / entry["cached_as"]
        if target.is_file():
            continue
        clone = local_clone(mirrors, entry["repo"])
        if clone is None:
            print(f"fill: no local clone of {entry['repo']} in {mirrors}", file=sys.stderr)
            continue
        rev = entry.get("commit") or "HEAD"
        proc = subprocess.run(["git", "-C", str(clone), "show", f"{rev}:{entry['path']}"],
                              capture_output=True)
        if proc.returncode != 0:
            print(f"fill: {entry['repo']} has no {entry['path']} at {rev}", file=sys.stderr)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(proc.stdout)
        copied += 1
    print(f"fill: {copied} file(s) copied into {cache}", file=sys.stderr)


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "  -  "


def totals(stats: dict) -> dict:
    total = {"files": 0, "tp": 0, "fp": 0, "fn": 0, "lookalike_fp": 0}
    for s in stats.values():
        for k in total:
            total[k] += s[k]
    return total


def print_table(split: str, stats: dict) -> None:
    if split:
        print(f"\n== part: {split} ==")
    print(f"{'category':22} {'files':>5} {'expected':>8} {'TP':>5} {'FP':>4} {'FN':>4}"
          f" {'precision':>9} {'recall':>7}")
    rows = sorted(stats.items()) + [("overall", totals(stats))]
    for name, s in rows:
        print(f"{name:22} {s['files']:>5} {s['tp'] + s['fn']:>8} {s['tp']:>5} {s['fp']:>4}"
              f" {s['fn']:>4} {ratio(s['tp'], s['tp'] + s['fp']):>9}"
              f" {ratio(s['tp'], s['tp'] + s['fn']):>7}")
    print(f"false positives on listed look-alike lines: {totals(stats)['lookalike_fp']}")


def print_side_by_side(splits: list[str], stats: dict) -> None:
    """Precision and recall of each part per category, one row per category."""
    print("\n== side by side (precision / recall, expected lines) ==")
    print(f"{'category':22}" + "".join(f" {name or '-':>24}" for name in splits))
    cats = sorted({cat for _, cat in stats})
    for cat in cats + ["overall"]:
        cells = []
        for split in splits:
            part = {c: s for (sp, c), s in stats.items() if sp == split}
            s = totals(part) if cat == "overall" else part.get(cat)
            if s is None:
                cells.append(f"{'':>24}")
                continue
            cells.append(f"{ratio(s['tp'], s['tp'] + s['fp']):>6} / "
                         f"{ratio(s['tp'], s['tp'] + s['fn']):>5} ({s['tp'] + s['fn']:>4})")
        print(f"{cat:22}" + "".join(f" {c:>24}" for c in cells))


def main() -> int:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uplint", default=str(here / "target" / "release" / "uplint"),
                        help="the uplint binary (default: target/release/uplint)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="the cache folder (default: ~/.cache/uplint-realworld if it "
                             "exists, else /work/realworld-cache)")
    parser.add_argument("--manifest", type=Path, action="append", default=[],
                        help="a manifest to score (repeatable; default: "
                             "tests/realworld/manifest.yaml)")
    parser.add_argument("--split", choices=("tune", "held", "all"), default="all",
                        help="score only the files of this part of a sampled manifest "
                             "(`split:` of each file; default: all, each part in its own table)")
    parser.add_argument("--category", action="append", default=[],
                        help="only these categories (repeatable)")
    parser.add_argument("--quiet", action="store_true",
                        help="figures only, without the lists of misses")
    parser.add_argument("--fill-from", type=Path, metavar="MIRRORS",
                        help="before scoring, copy files missing from the cache out of local git "
                             "clones in MIRRORS (MIRRORS/<owner>+<name>/repo, as the search tool's "
                             "fetch leaves them, or MIRRORS/<owner>/<name>) at the recorded commit")
    args = parser.parse_args()
    cache = args.cache or default_cache()
    if not Path(args.uplint).exists():
        sys.exit(f"no uplint binary at {args.uplint} (build it or pass --uplint)")
    # uplint runs from each repository's folder in the cache.
    args.uplint = str(Path(args.uplint).resolve())

    manifests = args.manifest or [here / "tests" / "realworld" / "manifest.yaml"]
    files = [entry for manifest in manifests for entry in load_manifest(manifest)]
    if args.split != "all":
        files = [f for f in files if f.get("split") == args.split]
    if args.fill_from:
        fill_cache(files, cache, args.fill_from)
    if args.category:
        files = [f for f in files if f["category"] in args.category]

    # One uplint run per repository, from its folder, with the repository's files.
    groups: dict[Path, list[dict]] = defaultdict(list)
    missing = []
    for entry in files:
        if (cache / entry["cached_as"]).is_file():
            groups[repo_root(cache, entry)].append(entry)
        else:
            missing.append(entry)

    stats = defaultdict(lambda: {"files": 0, "tp": 0, "fp": 0, "fn": 0, "lookalike_fp": 0})
    false_pos, false_neg = [], []
    for root, entries in sorted(groups.items()):
        findings = scan(args.uplint, root, [e["path"] for e in entries])
        for entry in entries:
            cat = stats[(entry.get("split") or "", entry["category"])]
            cat["files"] += 1
            got = findings.get(os.path.normpath(entry["path"]), [])
            expected = entry.get("expect") or []
            look = {item["line"]: item.get("note", "") for item in entry.get("lookalikes") or []}
            tolerated = tolerated_lines(entry)
            matched_findings = set()
            found_lines = set()
            for item in expected:
                ids = accepted_ids(item)
                hits = [i for i, f in enumerate(got) if f["line"] == item["line"] and f["id"] in ids]
                matched_findings.update(hits)
                if hits:
                    cat["tp"] += 1
                    found_lines.add(item["line"])
                else:
                    cat["fn"] += 1
                    false_neg.append((entry, item))
            for i, f in enumerate(got):
                if i in matched_findings or f["line"] in tolerated or f["line"] in found_lines:
                    continue
                cat["fp"] += 1
                if f["line"] in look:
                    cat["lookalike_fp"] += 1
                false_pos.append((entry, f, look.get(f["line"])))

    splits = sorted({split for split, _ in stats}, key=lambda s: (s != "tune", s))
    for split in splits:
        print_table(split, {cat: s for (sp, cat), s in stats.items() if sp == split})
    if len(splits) > 1:
        print_side_by_side(splits, stats)
    if missing:
        print(f"\n{len(missing)} file(s) missing from the cache {cache} (skipped):")
        for entry in missing:
            print(f"  {entry['cached_as']}")
    if not args.quiet:
        print(f"\nfalse positives ({len(false_pos)}):")
        for entry, f, note in false_pos:
            tag = f"  [look-alike: {note}]" if note is not None else ""
            print(f"  {entry['repo']}/{entry['path']}:{f['line']}:{f['column']} {f['id']}"
                  f" ({f.get('matched', '')}){tag}")
        print(f"\nfalse negatives ({len(false_neg)}):")
        for entry, item in false_neg:
            ids = "|".join(sorted(accepted_ids(item)))
            note = f"  -- {item['note']}" if item.get("note") else ""
            print(f"  {entry['repo']}/{entry['path']}:{item['line']} {ids}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
