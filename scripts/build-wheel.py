#!/usr/bin/env python3
"""Pack an uplint executable that is already built into a wheel, without compiling anything.

    python3 scripts/build-wheel.py target/release/uplint dist/

writes dist/uplint-VERSION-py3-none-manylinux_2_17_x86_64.whl: the executable as
uplint-VERSION.data/scripts/uplint (pip puts it on the environment's PATH), and the dist-info
(METADATA from pyproject.toml and Cargo.toml, WHEEL, RECORD with each file's SHA-256). It is
the wheel `maturin build --release` makes from pyproject.toml (bindings = "bin"), from the binary
the CI has built once. The executable is static (no glibc symbol versions to honour), stripped
of its debug information when `strip` is there. Files are stored in a fixed order with a fixed
date: the same binary gives the same wheel.
"""

import base64
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TAG = "py3-none-manylinux_2_17_x86_64"
DATE = (1980, 1, 1, 0, 0, 0)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def metadata(version):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        *(f"Classifier: {c}" for c in project["classifiers"]),
        "Description-Content-Type: text/markdown",
    ]
    return ("\n".join(lines) + "\n\n" + (ROOT / "README.md").read_text()).encode()


def executable(path):
    """The binary's bytes, stripped of debug information when strip is available."""
    if shutil.which("strip"):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "uplint"
            subprocess.run(["strip", "-o", str(out), str(path)], check=True)
            return out.read_bytes()
    return Path(path).read_bytes()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text())
    version = cargo["package"]["version"]
    reported = subprocess.run([str(binary), "--version"], check=True, capture_output=True, text=True).stdout
    if reported.strip() != f"uplint {version}":
        sys.exit(f"{binary} says {reported.strip()!r}, Cargo.toml says {version}")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*", version):
        sys.exit(f"version {version} is not a plain release version")
    data_dir, info = f"uplint-{version}.data", f"uplint-{version}.dist-info"
    files = [
        (f"{data_dir}/scripts/uplint", executable(binary), 0o755),
        (f"{info}/METADATA", metadata(version), 0o644),
        (f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: uplint scripts/build-wheel.py\nRoot-Is-Purelib: false\nTag: {TAG}\n".encode(), 0o644),
    ]
    record = "\n".join([*(record_line(n, d) for n, d, _ in files), f"{info}/RECORD,,"]) + "\n"
    files.append((f"{info}/RECORD", record.encode(), 0o644))
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"uplint-{version}-{TAG}.whl"
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, DATE)
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(entry, data)
    print(wheel)


if __name__ == "__main__":
    main()
