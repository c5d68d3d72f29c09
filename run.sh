#!/usr/bin/env bash
# Set up (first time only) and start the app: python -m app in a local virtual environment.
# Any arguments go to the app, e.g. ./run.sh --host 0.0.0.0 --port 8550 --data ~/rummy.json
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import flet, tinydb, rules, app" 2>/dev/null; then
  .venv/bin/pip install -q -e .
fi
exec .venv/bin/python -m app "$@"
