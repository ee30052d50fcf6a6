#!/usr/bin/env python3
"""Draw the runner-api part of tests/realworld/sampled-gj.yaml (issue 35).

Over the repositories named in a list file, in its order: the files of HEAD in a code
language (scripts/sample_code.py's CODE kinds plus shell, PowerShell and Python scripts; YAML
and JSON only in test folders, as sample_code.drawable says) that hold a written form of the
runners API (RUNNER_RE: the /runners paths, reset_registration_token, runners_token, the runner
fields the schedule removes or changes, an SDK's runners resource), random.Random(f"{seed}:{repo}")
.sample'd, at most --per-repo files each. Prints repo, commit, path, forms, number of hits;
with --copy CACHE writes each drawn file to CACHE/<owner>/<repo>/<path>.
"""
import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sample_code as base  # noqa: E402
import sample_code2  # noqa: E402

RUNNER_RE = re.compile(
    r"(?<![A-Za-z0-9_])(?:api/v4/runners|runners/all|runners/reset_registration_token"
    r"|reset_registration_token|runners_token|runners_token_encrypted|ip_address|tag_list"
    r"|run_untagged|maximum_timeout|is_shared|runner_type|registration_token"
    r"|runners\.(?:list|all|get|update|delete|create|verify)|Runners\.(?:all|show|edit|remove|register)"
    r"|\"/runners\"|'/runners'|/runners/[$%{:#])")
EXTRA_KINDS = {".sh", ".bash", ".py", ".ps1"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("repos", type=Path)
    ap.add_argument("--per-repo", type=int, default=3)
    ap.add_argument("--seed", default="gj35")
    ap.add_argument("--copy", type=Path)
    args = ap.parse_args()
    for repo in [l.strip() for l in args.repos.read_text().splitlines() if l.strip()]:
        clone = args.mirrors / repo.replace("/", "+", 1) / "repo"
        if (clone / ".git").is_dir():
            clone = clone / ".git"
        commit = base.git(clone, "rev-parse", "HEAD").strip()
        if not commit:
            print(f"{repo}\t-\tno snapshot")
            continue
        paths = [p for p in base.git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
                 if (base.drawable(p) or Path(p).suffix.lower() in EXTRA_KINDS)
                 and "node_modules/" not in p and "vendor/" not in p]
        sample_code2.draw(clone, repo, commit, paths, RUNNER_RE, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
