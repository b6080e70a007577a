"""Entry point for `flet build apk` (the packaged tablet app; see README): flet build runs the app
path's main.py, and the app itself lives in companion/app/main.py."""

import runpy

runpy.run_module("companion.app.main", run_name="__main__")
