"""`companion replay` run as a process."""

import json
import os
import subprocess
import sys

from tests.conftest import ROOT


def replay(*args, stdin=None):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdict = json.loads(done.stdout)  # stdout is exactly one JSON object, whatever happened
    assert verdict["format"] == "table-verdict/1"
    return done.returncode, verdict, done
