#!/usr/bin/env python3
"""Draw the code side of issue 35's sampled corpus (tests/realworld/sampled-code.yaml).

For every repository in MIRRORS (bare clones as the search tool's fetch leaves them,
MIRRORS/<owner>+<name>/repo), list the files of HEAD that are code or recorded
responses (by extension, below) and hold a written form of a code-side item (FORMS,
taken from data/*.yml: field, endpoint, method, flag and GraphQL names), then take a
seeded sample of at most PER_REPO of them (random.Random(f"35:{repo}")), in path order
before sampling. Prints one line per drawn file: repo, commit, path, the forms it holds.
With --copy CACHE, writes each drawn file's text to CACHE/<owner>/<repo>/<path>.
"""
import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

# Written forms of the code-side entries (data/*.yml patterns), as one regular expression.
FORMS = [
    r"merged_by", r"MergedBy", r"mergedBy", r"merge_status", r"MergeStatus", r"mergeStatus",
    r"geo_nodes", r"GeoNodes?", r"geoNodes", r"reset_registration_token", r"ResetRegistrationToken",
    r"resetRegistrationToken", r"Reset\w*RunnerRegistrationToken", r"registration_token",
    r"RegistrationToken", r"registrationToken", r"ip_address", r"IpAddress", r"IPAddress",
    r"ipAddress", r"private_profile", r"PrivateProfile", r"privateProfile", r"managed_licenses",
    r"ManagedLicenses?", r"approver_groups", r"approvers", r"ci_job_token_scope_enabled",
    r"sign_in_text", r"merge_requests/[^\"'`\s]*changes", r"MergeRequestChanges",
    r"merge_request_changes", r"showChanges", r"CI_JOB_JWT\w*", r"--registration-token",
    r"--tag-list", r"--run-untagged", r"--maximum-timeout", r"--maintenance-note",
    r"--access-level", r"securityReportFindings", r"hasSolutions", r"totalWeight",
    r"dependencyProxyTotalSizeInBytes", r"registrySizeEstimated", r"canDestroy",
    r"runnerPlatforms", r"runnerSetup", r"projectFingerprint", r"isTemporaryStorageIncreaseEnabled",
    r"CiRunnerUpgradeStatusType", r"RunnerMembershipFilter", r"DISABLED_WITH_OVERRIDE",
    r"user_email_lookup_limit", r"error_tracking", r"-/jwks", r"geo/replication",
    r"direct_asset_path", r"runner_type", r"is_shared",
]
FORM_RE = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(FORMS) + r")(?![A-Za-z0-9_])")
CODE = {".go", ".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".vue", ".rb", ".java",
        ".kt", ".kts", ".cs", ".php", ".ps1", ".psm1", ".graphql", ".gql", ".scala", ".groovy",
        ".rs", ".swift", ".json", ".yml", ".yaml", ".erb", ".rake"}
RECORDED_DIR = re.compile(r"(^|/)(tests?|spec|fixtures?|mocks?|__mocks__|testdata|cassettes|stubs|samples?)(/|$)", re.I)


def drawable(path: str) -> bool:
    p = Path(path)
    if p.suffix.lower() not in CODE or ".min." in p.name:
        return False
    if p.suffix.lower() in {".yml", ".yaml", ".json"}:
        # Configuration belongs to the config side; recorded responses live in test folders.
        return bool(RECORDED_DIR.search(path)) and "package" not in p.name and "lock" not in p.name
    return True


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True,
                          text=True, errors="replace", check=False).stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("--per-repo", type=int, default=6)
    ap.add_argument("--copy", type=Path)
    args = ap.parse_args()
    for clone in sorted(args.mirrors.glob("*+*/repo")):
        repo = clone.parent.name.replace("+", "/", 1)
        commit = git(clone, "rev-parse", "HEAD").strip()
        if not commit:
            continue
        paths = [p for p in git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines() if drawable(p)]
        hits = []
        for path in sorted(paths):
            text = git(clone, "show", f"HEAD:{path}")
            if len(text) > 400_000:
                continue
            forms = sorted(set(FORM_RE.findall(text)))
            if forms:
                hits.append((path, forms))
        drawn = random.Random(f"35:{repo}").sample(hits, min(args.per_repo, len(hits)))
        for path, forms in sorted(drawn):
            print(f"{repo}\t{commit}\t{path}\t{' '.join(forms[:8])}\t{len(hits)}")
            if args.copy:
                out = args.copy / repo / path
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(git(clone, "show", f"HEAD:{path}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
