#!/usr/bin/env bash
# Installs what the tests of the pictures and of mplp_models.otel need beyond the dev venv, into .tools/:
#   - Graphviz's dot (Debian's graphviz package), to render plan.to_dot();
#   - mermaid's own parser (npm: tests/tools/mermaid/package*.json) under node, to read every Mermaid picture;
#   - the OTLP backend, Arize Phoenix, in a venv of its own (its pins, tests/tools/phoenix-requirements.txt,
#     are not the dev venv's; it needs Python 3.11 or newer), that tests/test_otel_backend.py starts on 127.0.0.1.
# Each step is skipped when what it made is there and its inputs have not changed; runs take turns (flock).
# `setup.sh --background` starts itself in the background (make test does, so that it runs beside the lint
# and type checks) and returns; the tests run it again, which waits for that run and then finds it all done.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TOOLS="$ROOT/.tools"
mkdir -p "$TOOLS"
if [[ "${1:-}" == "--background" ]]; then
    nohup "$0" > "$TOOLS/setup.log" 2>&1 < /dev/null &
    exit 0
fi
exec 9> "$TOOLS/setup.lock"
flock 9

stamp_ok() { [[ -f "$1" ]] && [[ "$(cat "$1")" == "$2" ]]; }
digest() { cat "$@" | sha256sum | cut -d' ' -f1; }

if ! command -v dot > /dev/null; then
    echo "setup: installing Graphviz (Debian's graphviz) for dot" >&2
    if [[ "$(id -u)" != 0 ]]; then echo "setup: dot is missing; install Graphviz (apt-get install graphviz)" >&2; exit 1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q graphviz > /dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q graphviz > /dev/null; }
fi

MERMAID="$TOOLS/mermaid"
want="$(digest "$ROOT/tests/tools/mermaid/package.json" "$ROOT/tests/tools/mermaid/package-lock.json")"
if ! stamp_ok "$MERMAID/.installed" "$want"; then
    echo "setup: installing mermaid's parser (npm ci) into $MERMAID" >&2
    mkdir -p "$MERMAID"
    cp "$ROOT/tests/tools/mermaid/package.json" "$ROOT/tests/tools/mermaid/package-lock.json" "$MERMAID/"
    (cd "$MERMAID" && npm ci --silent --no-audit --no-fund)
    echo "$want" > "$MERMAID/.installed"
fi
cp "$ROOT/tests/tools/mermaid/check.mjs" "$MERMAID/check.mjs"

PHOENIX="$TOOLS/phoenix"
want="$(digest "$ROOT/tests/tools/phoenix-requirements.txt")"
if ! stamp_ok "$PHOENIX/.installed" "$want"; then
    python=""
    for candidate in python3 python3.13 python3.12 python3.11; do
        if command -v "$candidate" > /dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            python="$(command -v "$candidate")"; break
        fi
    done
    if [[ -z "$python" ]]; then echo "setup: Arize Phoenix needs Python 3.11 or newer on PATH" >&2; exit 1; fi
    echo "setup: installing Arize Phoenix into $PHOENIX (with $python)" >&2
    rm -rf "$PHOENIX"
    "$ROOT/.venv/bin/uv" venv -q --python "$python" "$PHOENIX"
    "$ROOT/.venv/bin/uv" pip install -q --compile-bytecode --python "$PHOENIX/bin/python" -r "$ROOT/tests/tools/phoenix-requirements.txt"
    echo "$want" > "$PHOENIX/.installed"
fi
echo "setup: done" >&2
