#!/usr/bin/env python3
"""Draw tests/realworld/sampled-code2.yaml (issue 35, second code sample).

Like scripts/sample_code.py (same file kinds, same written forms plus the release-link,
lint and runner-argument forms below), but only over the repositories named in a list
file, in its order (the seeded draw of the manifest header), seeded per repository with
random.Random(f"{args.seed}:{repo}"), at most PER_REPO files each. Prints one line per drawn
file: repo, commit, path, the forms it holds, the repository's number of hits.
With --copy CACHE, writes each drawn file's text to CACHE/<owner>/<repo>/<path>.
Options for later draws (sampled-fc.yaml, sampled-fj.yaml): --seed S replaces the seed prefix
"352", --ext keeps only files with these extensions (`.py,.js` or `go,java`: the dot is
optional), --form REGEX adds a written form.
"""
import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sample_code as base  # noqa: E402

EXTRA = [r"tag_list", r"run_untagged", r"maximum_timeout", r"assets/links", r"ci/lint",
         r"CI_JOB_JWT", r"changes_count"]
FORM_RE = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(base.FORMS + EXTRA) + r")(?![A-Za-z0-9_])")


def draw(clone, repo, commit, paths, form_re, args):
    """Of `paths` (HEAD of `clone`), the files under 400,000 characters holding a form of
    `form_re`, random.Random(f"{args.seed}:{repo}").sample'd (at most args.per_repo): printed,
    and with args.copy written to args.copy/<owner>/<repo>/<path>."""
    hits = []
    for path in sorted(paths):
        text = base.git(clone, "show", f"HEAD:{path}")
        if len(text) > 400_000:
            continue
        forms = sorted(set(form_re.findall(text)))
        if forms:
            hits.append((path, forms))
    drawn = random.Random(f"{args.seed}:{repo}").sample(hits, min(args.per_repo, len(hits)))
    if not drawn:
        print(f"{repo}\t{commit}\t-\tno hit\t0")
    for path, forms in sorted(drawn):
        print(f"{repo}\t{commit}\t{path}\t{' '.join(forms[:8])}\t{len(hits)}")
        if args.copy:
            out = args.copy / repo / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(base.git(clone, "show", f"HEAD:{path}"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("repos", type=Path, help="file of owner/name lines, in drawn order")
    ap.add_argument("--per-repo", type=int, default=3)
    ap.add_argument("--copy", type=Path)
    ap.add_argument("--seed", default="352",
                    help="per-repository seed prefix: random.Random(f'{seed}:{repo}') (352 for code2)")
    ap.add_argument("--ext", default="",
                    help="comma-separated extensions to keep (e.g. .py,.js,.ts,.vue); others are "
                         "skipped and counted on stderr (default: every kind of base.drawable)")
    ap.add_argument("--form", action="append", default=[], help="an extra written form (regex)")
    args = ap.parse_args()
    form_re = FORM_RE
    if args.form:
        form_re = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(base.FORMS + EXTRA + args.form)
                             + r")(?![A-Za-z0-9_])")
    exts = {"." + e.strip().lower().lstrip(".") for e in args.ext.split(",") if e.strip()}
    skipped = 0
    for repo in [l.strip() for l in args.repos.read_text().splitlines() if l.strip()]:
        clone = args.mirrors / repo.replace("/", "+", 1) / "repo"
        if (clone / ".git").is_dir():
            clone = clone / ".git"
        commit = base.git(clone, "rev-parse", "HEAD").strip()
        if not commit:
            print(f"{repo}\t-\tno snapshot")
            continue
        paths = [p for p in base.git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
                 if base.drawable(p)]
        if exts:
            kept = [p for p in paths if Path(p).suffix.lower() in exts]
            skipped += sum(1 for p in paths if p not in kept and form_re.search(
                base.git(clone, "show", f"HEAD:{p}")[:400_000]))
            paths = kept
        draw(clone, repo, commit, paths, form_re, args)
    if exts:
        print(f"files of other kinds holding a form, skipped: {skipped}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
