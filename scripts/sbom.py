#!/usr/bin/env python3
"""A CycloneDX 1.5 SBOM (JSON) of the uplint executable, from `cargo metadata` and Cargo.lock.

    python3 scripts/sbom.py [--target TRIPLE] > uplint.cdx.json
    python3 scripts/sbom.py --check uplint.cdx.json

The components are the crates linked into the executable: uplint's normal dependencies, followed
transitively, for the target platform (build scripts' and tests' dependencies are not shipped).
Each has its purl (pkg:cargo/NAME@VERSION), its licence expression, and the SHA-256 of its
.crate from Cargo.lock; `dependencies` holds the graph. Offline: it reads what cargo resolved.
`--check` validates the shape of a document (what a consumer relies on) and exits 1 when it is
wrong. No timestamp: the same tree gives the same SBOM.
"""

import argparse
import json
import subprocess
import sys
import tomllib
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def metadata(target):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", target],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def shipped(meta):
    """Package ids reachable from the root through normal dependencies."""
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, todo, edges = {root}, [root], {}
    while todo:
        node = nodes[todo.pop()]
        deps = [d["pkg"] for d in node["deps"] if any(k["kind"] is None for k in d["dep_kinds"])]
        edges[node["id"]] = sorted(deps)
        for dep in deps:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return root, seen, edges


def purl(pkg):
    return f"pkg:cargo/{pkg['name']}@{pkg['version']}"


def component(pkg, checksums, kind="library"):
    comp = {"type": kind, "bom-ref": purl(pkg), "name": pkg["name"], "version": pkg["version"], "purl": purl(pkg)}
    if pkg.get("description"):
        comp["description"] = " ".join(pkg["description"].split())
    if pkg.get("license"):
        comp["licenses"] = [{"expression": pkg["license"]}]
    digest = checksums.get((pkg["name"], pkg["version"]))
    if digest:
        comp["hashes"] = [{"alg": "SHA-256", "content": digest}]
    if pkg.get("repository"):
        comp["externalReferences"] = [{"type": "vcs", "url": pkg["repository"]}]
    return comp


def sbom(target):
    meta = metadata(target)
    lock = tomllib.loads((ROOT / "Cargo.lock").read_text())
    checksums = {(p["name"], p["version"]): p["checksum"] for p in lock["package"] if "checksum" in p}
    packages = {p["id"]: p for p in meta["packages"]}
    root, ids, edges = shipped(meta)
    main = component(packages[root], checksums, "application")
    comps = sorted((component(packages[i], checksums) for i in ids if i != root), key=lambda c: c["bom-ref"])
    deps = [{"ref": purl(packages[i]), "dependsOn": [purl(packages[d]) for d in edges.get(i, [])]}
            for i in sorted(ids, key=lambda i: purl(packages[i]))]
    serial = uuid.uuid5(uuid.NAMESPACE_URL, f"{main['purl']}?target={target}")
    return {
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        "serialNumber": f"urn:uuid:{serial}",
        "version": 1,
        "metadata": {
            "tools": {"components": [{"type": "application", "name": "uplint scripts/sbom.py"}]},
            "component": main,
            "properties": [{"name": "cdx:rust:target", "value": target}],
        },
        "components": comps,
        "dependencies": deps,
    }


def check(doc):
    """The problems of a CycloneDX 1.5 JSON document, as consumers read it."""
    problems = []
    need = {"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1}
    problems += [f"{k} must be {v!r}" for k, v in need.items() if doc.get(k) != v]
    if not str(doc.get("serialNumber", "")).startswith("urn:uuid:"):
        problems.append("serialNumber must be a urn:uuid")
    main = doc.get("metadata", {}).get("component", {})
    comps = doc.get("components", [])
    if main.get("type") != "application" or not main.get("purl", "").startswith("pkg:cargo/uplint@"):
        problems.append("metadata.component must be the uplint application with its purl")
    refs = [c.get("bom-ref") for c in [main, *comps]]
    if len(set(refs)) != len(refs):
        problems.append("bom-refs must be unique")
    for c in comps:
        for key in ("type", "name", "version", "purl", "bom-ref"):
            if not c.get(key):
                problems.append(f"component {c.get('name')} lacks {key}")
        if c.get("purl") != f"pkg:cargo/{c.get('name')}@{c.get('version')}":
            problems.append(f"component {c.get('name')}: purl {c.get('purl')}")
        for h in c.get("hashes", []):
            if h.get("alg") != "SHA-256" or len(h.get("content", "")) != 64:
                problems.append(f"component {c.get('name')}: hash {h}")
    known = set(refs)
    for d in doc.get("dependencies", []):
        for r in [d.get("ref"), *d.get("dependsOn", [])]:
            if r not in known:
                problems.append(f"dependency {r} is not a component")
    if not comps:
        problems.append("no components")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="x86_64-unknown-linux-gnu")
    ap.add_argument("--check", metavar="FILE")
    args = ap.parse_args()
    if args.check:
        problems = check(json.loads(Path(args.check).read_text()))
        for p in problems:
            print(f"{args.check}: {p}", file=sys.stderr)
        sys.exit(1 if problems else 0)
    json.dump(sbom(args.target), sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
