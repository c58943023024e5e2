#!/usr/bin/env bash
# Install what s2svec, its example and its tests need; safe to run again.
#   Debian packages: clang (Debian's default, 14 on bookworm) and clang-19 (the
#   differential matrix builds with both) with clang-19's OpenMP runtime and
#   omp.h (the drop-in tests build OpenMP programs with it), the aarch64 and
#   riscv64 cross compilers + libcs (clang-19 links RISC-V V code with the
#   riscv64 ones), qemu-user, nodejs (pyright runs on it)
#   Python: a virtual environment in .venv with the pinned packages
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have() { command -v "$1" >/dev/null 2>&1; }
have gcc || missing+=(gcc)
have clang || missing+=(clang)
have clang-19 || missing+=(clang-19)
[ -f /usr/lib/llvm-19/lib/clang/19/include/omp.h ] || missing+=(libomp-19-dev)
have aarch64-linux-gnu-gcc || missing+=(gcc-aarch64-linux-gnu)
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
have riscv64-linux-gnu-gcc || missing+=(gcc-riscv64-linux-gnu)
[ -f /usr/riscv64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-riscv64-cross)
have qemu-aarch64 || missing+=(qemu-user)
have qemu-riscv64 || missing+=(qemu-user)
have dot || missing+=(graphviz)
have node || missing+=(nodejs)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "setup: installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
stamp=.venv/.s2svec-installed
if [ ! -f "$stamp" ] || [ setup.cfg -nt "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing Python packages"
  .venv/bin/pip install -q --disable-pip-version-check -e '.[test,bench]'
  touch "$stamp"
fi
# Byte-compile the sources: with PYTHONDONTWRITEBYTECODE set, every start of
# s2svec would compile them again (0.14 s).  Quick when nothing changed.
.venv/bin/python -m compileall -q s2s .venv/lib/python3*/site-packages/{jinja2,markupsafe,clang} >/dev/null

# s2svec and s2svec-cc on PATH: links in /usr/local/bin to this checkout's
# .venv/bin (a link to another checkout that still works is left alone).
bin=/usr/local/bin
for tool in s2svec s2svec-cc; do
  want="$PWD/.venv/bin/$tool"
  have="$(readlink "$bin/$tool" 2>/dev/null || true)"
  if [ "$have" = "$want" ]; then
    continue
  elif [ -n "$have" ] && [ -x "$have" ]; then
    echo "setup: $bin/$tool is $have; this checkout's is $want"
  elif [ -e "$bin/$tool" ] && [ -z "$have" ]; then
    echo "setup: $bin/$tool is not s2svec's link; this checkout's is $want"
  elif [ -w "$bin" ]; then
    ln -sfn "$want" "$bin/$tool"
  else
    echo "setup: cannot link $bin/$tool (not writable); use $want"
  fi
done
