# Sourced by the scripts that need tools the machine may lack. Tools go into the checkout's
# target/tools/ (npm packages under node_modules there, Python packages in a venv there, cargo
# tools with `cargo install --locked --root` there), never into the system or the user's home, except
# the Debian packages no folder can hold (chromium, neovim, rsync: apt-get, said as such).
# Every install is recorded in target/tools/installed.txt; .ci/run lists that record at its end.
tools_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/tools"
mkdir -p "$tools_root"

# Record an install: `installed WHAT WHERE`.
installed() {
  echo "installed: $1 -> $2" | tee -a "$tools_root/installed.txt"
}

# Install Debian packages (root only; the one system-wide step), and record it.
apt_install() {
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  installed "apt packages $*" "the system (apt-get)"
}

# A Python venv in target/tools/NAME with PACKAGES, made once; prints its directory.
tools_venv() {
  local name="$1"
  shift
  local venv="$tools_root/$name"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import sys" 2>/dev/null; then
    python3 -m venv "$venv" >&2
  fi
  local missing=()
  for p in "$@"; do
    "$venv/bin/pip" show --quiet "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    "$venv/bin/pip" install --quiet "${missing[@]}" >&2
    installed "pip ${missing[*]}" "target/tools/$name (venv)" >&2
  fi
  echo "$venv"
}
