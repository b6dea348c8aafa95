"""The app's blueprints, one module each, thin: they parse the request, call the modules of app/
that do the work, and answer. No blueprint imports another. The metrics blueprint
(routes/metrics.py) is left out: create_app registers it only when METRICS is on."""

from . import daily_api, game_api, health, language, pages, record_pages, records_api

BLUEPRINTS = [game_api.bp, records_api.bp, daily_api.bp, pages.bp, record_pages.bp, health.bp, language.bp]
