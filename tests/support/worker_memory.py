"""What a new worker process loads: the modules behind its memory."""

import json
import os
import subprocess
import sys

BUILD_THE_APP = "import json, sys; from app import create_app; create_app(); print(json.dumps(sorted(sys.modules)))"


def modules_of_a_new_worker(**env) -> set[str]:
    """The modules a fresh process has imported once it has built the app, as a gunicorn worker does."""
    run = subprocess.run(
        [sys.executable, "-c", BUILD_THE_APP], env=os.environ | env, capture_output=True, text=True, check=True
    )
    return set(json.loads(run.stdout.splitlines()[-1]))
