#!/usr/bin/env python3
"""Re-score a build of uplint on the whole-repository evaluation (issues 35 and 36).

`tests/realworld/repos.yaml` lists public repositories scanned whole, at a recorded commit, with
the verdict of every finding a platform engineer read (`true`: a use of the platform's item in
production code; `test`: a true use in test code or test data, which uplint must mark `test`;
`wrong`: not the platform's item, or the wrong entry) and the production uses a grep of the
items' written forms found and uplint did not (`misses`, each with why).

Nothing is fetched. The trees are read from a cache folder laid out as
`<cache>/<owner>/<name>/` (the repository's files at the recorded commit), for example extracted
from the search tool's snapshots with

    git --git-dir=/work/.mirror/<owner>+<name>/repo archive <commit> | tar -x -C <cache>/<owner>/<name>

Each tree is scanned from its own folder with

    uplint scan --format json --no-config --target 18.0 --api v5 --tests include .

(`--fill-from DIR` lays out missing trees from local clones, `DIR/<owner>+<name>/repo` as the
search tool's `fetch` leaves them or `DIR/<owner>/<name>`, at the recorded commits; blobs a
snapshot lacks are skipped) and the findings are compared with the manifest by (path, line, id):

- production precision: among findings uplint marks `production`, the share judged `true`
  (a `test` verdict in production context counts against it: a mock reported as a use);
- test marking: among findings judged `test`, the share uplint marks `test`; a `true` finding
  marked `test` is a production use hidden among the tests, listed apart;
- misses: recorded production misses that this build still does not report (any finding of the
  miss's id on its line counts as found);
- unjudged: findings the manifest has no verdict for (a new finding: read it, then add it).
  `--skeleton` prints them as manifest lines to fill in.

`--grep` lists the hits of the items' written forms (FORMS below) in production files of the
trees that have no finding on their line and are not recorded as a miss: the candidates to read
when judging misses anew. It is a measurement: the exit status is 0 unless the input is bad.
It needs PyYAML.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("repo-eval.py needs PyYAML (pip install pyyaml)")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MANIFEST = os.path.join(ROOT, "tests", "realworld", "repos.yaml")

# The written forms of the data's items (derived from data/*.yml: every pattern's name, path's
# last key, flag, argument, endpoint's distinctive segments, GraphQL name), as regular
# expressions. A form other programs also write (`active`, `status`, `locked`) is grepped only
# in a file that names its context (the second element), so that the candidates stay readable.
FORMS = [
    (r"user_email_lookup_limit", None),
    (r"\blfs_check\b", None),
    (r"ci/lint", None),
    (r"\b(sign_in_text|help_text)\b", r"application/settings|[Ss]ettings"),
    (r"\bfilepath\b", r"release|assets"),
    (r"geo/replication|/-/jwks", None),
    (r"ci_job_token_scope_enabled", None),
    (r"reset_registration_token|Reset\w*RegistrationToken|resetRegistrationToken", None),
    (r"RegisterNewRunner|register_runner|[Rr]unners\.(create|register)\b", None),
    (r"[\"'/]runners[\"'/?]", r"POST|post|Post"),
    (r"CiRunnerUpgradeStatusType|RunnerMembershipFilter|DISABLED_WITH_OVERRIDE", None),
    (r"isTemporaryStorageIncreaseEnabled|temporaryStorageIncreaseEndsOn", None),
    (r"\b(architectureName|platformName|ipAddress)\b", r"runner|Runner"),
    (r"hasSolutions|dependencyProxyTotalSizeInBytes|registrySizeEstimated|totalWeight", None),
    (r"networkPolicies|canDestroy|runnerPlatforms|runnerSetup|projectFingerprint", None),
    (r"securityReportFindings", None),
    (r"CI_JOB_JWT", None),
    (r"strategy:\s*['\"]?depend", None),
    (r"vulnerability_states", None),
    (r"FF_USE_NEW_SHELL_ESCAPE", None),
    (r"gitlab-runner\"?,? +\"?exec\b", None),
    (r"terminationGracePeriodSeconds", r"runners\.kubernetes|gitlab-runner"),
    (r"queue_selector|sidekiq\['negate'\]", None),
    (r"(incoming_email|service_desk_email)_delivery_method|deliveryMethod", None),
    (r"per_table_stats|privateApi|backup_pg_schema|geo_repositories_", None),
    (r"tags/reference", None),
    (r"DAST_ZAP_|certificate_based_clusters|manifest_projects", None),
    (r"registration[-_]token|[Rr]egistrationToken|REGISTRATION_TOKEN|registrationConfigFile", None),
    (
        r"access[-_]level|accessLevel|maintenance[-_]note|maintenanceNote|maximum[-_]timeout"
        r"|maximumTimeout|run[-_]untagged|runUntagged|tag[-_]list|tagList|locked_to_project",
        r"runner|Runner|RUNNER",
    ),
    (r"\b(locked|paused|protected|active|Active)\b", r"gitlab-runner|[Rr]unners?\b|RUNNER"),
    (r"\bstatus\b", r"/runners|[Rr]unners\.(list|all)|ListRunners"),
    (r"GeoNodes|geo_nodes|geonodes", None),
    (r"merged_by|MergedBy|mergedBy", None),
    (r"merge_status|MergeStatus|mergeStatus", None),
    (r"private_profile", None),
    (r"GetMergeRequestChanges|showChanges|merge_request_changes|/changes\b", None),
    (r"managed_licenses|ManagedLicenses", None),
    (r"approver_groups|\bapprovers\b|ApproverGroups|\.Approvers\b", None),
    (r"ip_address|IPAddress", None),
    (r"error_tracking|ErrorTracking|errorTracking", None),
    (r"\bintegrated\b", r"error_tracking|ErrorTracking|errorTracking"),
    (r"\bpipelines\b", r"/packages"),
    (r"/users\b", r"\bpage\b"),
]

SKIP_DIRS = {".git", "node_modules", "vendor", "dist", "build"}
PROSE = (".md", ".txt", ".html", ".rst", ".png", ".gif", ".jpg", ".svg", ".lock", ".sum")


def load_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        sys.exit(f"{path}: cannot read the manifest: {e}")
    repos = data.get("repositories") if isinstance(data, dict) else None
    if not isinstance(repos, list):
        sys.exit(f"{path}: expected a mapping with `repositories:`, a list of repositories")
    for r in repos:
        for key in ("repo", "commit", "findings"):
            if key not in r:
                sys.exit(f"{path}: repository {r.get('repo', '?')}: `{key}` is missing")
        for f in r["findings"]:
            if f.get("verdict") not in ("true", "test", "wrong"):
                sys.exit(
                    f"{path}: {r['repo']} {f.get('path')}:{f.get('line')}: verdict must be "
                    f"true, test or wrong, not {f.get('verdict')!r}"
                )
    return repos


def fill(clones, repo, commit, tree):
    """Write the files of `repo` at `commit` from a local clone into `tree`; False if no clone."""
    owner, name = repo.split("/", 1)
    for git_dir in (
        os.path.join(clones, f"{owner}+{name}", "repo"),
        os.path.join(clones, owner, name, ".git"),
        os.path.join(clones, owner, name),
    ):
        if os.path.isdir(git_dir):
            break
    else:
        return False
    git = ["git", "--git-dir", git_dir]
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", commit], capture_output=True)
    if listing.returncode != 0:
        sys.exit(f"{git_dir}: no commit {commit} ({listing.stderr.decode().strip()[:200]})")
    for entry in listing.stdout.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, blob = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        data = subprocess.run(git + ["cat-file", "blob", blob.decode()], capture_output=True)
        if data.returncode != 0:
            continue  # not in the snapshot (large files, LFS)
        out = os.path.join(tree, path.decode("utf-8", "replace"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data.stdout)
    return True


def scan(uplint, tree):
    cmd = [uplint, "scan", "--format", "json", "--no-config", "--target", "18.0"]
    cmd += ["--api", "v5", "--tests", "include", "."]
    p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"{tree}: uplint exited {p.returncode}: {p.stderr.strip()[:500]}")
    return json.loads(p.stdout)["findings"]


def is_test(path):
    """The evaluation's own reading of a test path (for --grep only)."""
    low = path.lower()
    parts = low.split("/")
    dirs = {"test", "tests", "spec", "specs", "__tests__", "__mocks__", "testdata", "fixtures",
            "mocks", "e2e", "testing", "test-data", "test_data", "cassettes", "acceptance"}
    name = parts[-1]
    return bool(dirs.intersection(parts[:-1])) or bool(
        re.search(r"(_test\.go|_test\.py|_spec\.rb|_test\.rb|\.(test|spec)\.[jt]sx?)$", name)
        or re.match(r"test_.*\.py$", name)
        or name == "conftest.py"
    )


def grep_candidates(tree, found_lines, missed):
    forms = [(re.compile(rx), re.compile(ctx) if ctx else None) for rx, ctx in FORMS]
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, tree)
            if name.lower().endswith(PROSE) or is_test(rel):
                continue
            try:
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if "\0" in text[:4096]:
                continue
            lines = None
            for rx, ctx in forms:
                if ctx is not None and not ctx.search(text):
                    continue
                if not rx.search(text):
                    continue
                lines = lines or text.split("\n")
                for no, line in enumerate(lines, 1):
                    if rx.search(line) and (rel, no) not in found_lines and (rel, no) not in missed:
                        yield rel, no, line.strip()[:160]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uplint", default=os.path.join(ROOT, "target", "release", "uplint"))
    ap.add_argument("--cache", default="/work/realworld-cache/repos")
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--repo", action="append", help="only this owner/name (repeatable)")
    ap.add_argument("--skeleton", action="store_true", help="print unjudged findings as YAML")
    ap.add_argument("--grep", action="store_true", help="list written-form hits without finding")
    ap.add_argument("--fill-from", metavar="DIR", help="lay out missing trees from local clones")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if not os.access(a.uplint, os.X_OK):
        sys.exit(f"{a.uplint}: no such executable (cargo build --release, or give --uplint)")

    total = Counter()
    rows = []
    for r in load_manifest(a.manifest):
        if a.repo and r["repo"] not in a.repo:
            continue
        tree = os.path.join(a.cache, r["repo"])
        if not os.path.isdir(tree) and a.fill_from:
            if fill(a.fill_from, r["repo"], r["commit"], tree):
                print(f"{r['repo']}: laid out at {r['commit'][:12]}", file=sys.stderr)
        if not os.path.isdir(tree):
            print(f"{r['repo']}: not in the cache ({tree}); skipped", file=sys.stderr)
            continue
        verdicts = {(f["path"], f["line"], f["id"]): f for f in r["findings"]}
        got = scan(a.uplint, tree)
        c = Counter()
        seen = set()
        unjudged = []
        for f in got:
            key = (f["path"], f["line"], f["id"])
            ctx = f.get("context", "production")
            v = verdicts.get(key)
            if key in seen:
                c["duplicate"] += 1
                continue
            seen.add(key)
            if v is None:
                c["unjudged"] += 1
                unjudged.append(f)
                continue
            c[f"{ctx}:{v['verdict']}"] += 1
        lost = [k for k in verdicts if k not in seen]
        c["gone"] = len(lost)
        found_ids = defaultdict(set)
        for f in got:
            found_ids[(f["path"], f["line"])].add(f["id"])
        misses = r.get("misses") or []
        still = [m for m in misses if m["id"] not in found_ids.get((m["path"], m["line"]), ())]
        c["misses"] = len(still)
        c["misses_found"] = len(misses) - len(still)
        total.update(c)
        rows.append((r["repo"], c))
        if not a.quiet:
            for f in unjudged:
                print(f"  unjudged {r['repo']} {f['path']}:{f['line']} {f['id']} [{f.get('context')}]")
            for m in still:
                print(f"  miss     {r['repo']} {m['path']}:{m['line']} {m['id']}")
            for k in lost:
                if verdicts[k]["verdict"] == "true":
                    print(f"  gone     {r['repo']} {k[0]}:{k[1]} {k[2]} (judged true)")
        if a.skeleton and unjudged:
            print(f"# {r['repo']}")
            for f in unjudged:
                print(f"      - {{path: {f['path']}, line: {f['line']}, id: {f['id']}, "
                      f"verdict: ?, note: \"[{f.get('context')}] {f.get('matched', '')}\"}}")
        if a.grep:
            missed = {(m["path"], m["line"]) for m in misses}
            for rel, no, line in grep_candidates(tree, set(found_ids), missed):
                print(f"  grep     {r['repo']} {rel}:{no}: {line}")

    print(f"{'repository':48} {'prod':>5} {'true':>5} {'wrong':>5} {'mock':>5} "
          f"{'test':>5} {'tmark':>5} {'hid':>4} {'miss':>4} {'new':>4}")

    def line(name, c):
        prod = c["production:true"] + c["production:wrong"] + c["production:test"]
        tests = c["production:test"] + c["test:test"]
        print(f"{name:48} {prod:5} {c['production:true']:5} {c['production:wrong']:5} "
              f"{c['production:test']:5} {tests:5} {c['test:test']:5} {c['test:true']:4} "
              f"{c['misses']:4} {c['unjudged']:4}")

    for name, c in rows:
        line(name, c)
    line("all", total)
    prod = total["production:true"] + total["production:wrong"] + total["production:test"]
    tests = total["production:test"] + total["test:test"]
    prec = total["production:true"] / prod if prod else 1.0
    marked = total["test:test"] / tests if tests else 1.0
    print(f"\nproduction precision {prec:.4f} ({total['production:true']}/{prod}); "
          f"test findings marked test {marked:.4f} ({total['test:test']}/{tests}); "
          f"true uses marked test {total['test:true']}; wrong in tests {total['test:wrong']}; "
          f"recorded misses still missed {total['misses']} (found now {total['misses_found']}); "
          f"judged findings gone {total['gone']}; unjudged {total['unjudged']}; "
          f"duplicates {total['duplicate']}")
    print("columns: prod = production findings; mock = judged test but marked production; "
          "test = judged test; tmark = of those marked test; hid = judged true but marked test; "
          "new = unjudged")


if __name__ == "__main__":
    main()
