"""A PEP 517 build backend for a package without code: a wheel of metadata whose only content
is its requirements (here: the uplint wheel of the same version), read from pyproject.toml."""

import base64
import hashlib
import io
import tarfile
import zipfile
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11: the table is small enough to read by hand
    tomllib = None

HERE = Path(__file__).resolve().parent


def _project():
    text = (HERE / "pyproject.toml").read_text()
    if tomllib:
        return tomllib.loads(text)["project"]
    project, section = {}, None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("["):
            section = line
        elif section == "[project]" and "=" in line:
            key, value = (s.strip() for s in line.split("=", 1))
            project[key] = eval(value, {}, {})  # strings and lists of strings
    return project


def _names():
    p = _project()
    dist = p["name"].replace("-", "_")
    return p, dist, f"{dist}-{p['version']}"


def _metadata():
    p, _, _ = _names()
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p['description']}", *(f"Requires-Dist: {d}" for d in p["dependencies"])]
    return "\n".join(lines) + "\n"


def _record(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _, dist, stem = _names()
    info = f"{stem}.dist-info"
    files = [(f"{info}/METADATA", _metadata().encode()),
             (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: hook_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n")]
    record = "\n".join([*(_record(n, d) for n, d in files), f"{info}/RECORD,,"]) + "\n"
    files.append((f"{info}/RECORD", record.encode()))
    name = f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w") as zf:
        for n, d in files:
            zf.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
    return name


def build_sdist(sdist_directory, config_settings=None):
    _, _, stem = _names()
    name = f"{stem}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as tf:
        for f in ("pyproject.toml", "hook_backend.py", ".pre-commit-hooks.yaml"):
            tf.add(HERE / f, arcname=f"{stem}/{f}")
        pkg = _metadata().encode()
        info = tarfile.TarInfo(f"{stem}/PKG-INFO")
        info.size = len(pkg)
        tf.addfile(info, io.BytesIO(pkg))
    return name
