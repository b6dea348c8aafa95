"""A self-hostable 2048: the app factory."""

import os

from flask import Flask
from flask_compress import Compress
from werkzeug.middleware.proxy_fix import ProxyFix

from . import (
    answers,
    assets,
    backups,
    config,
    database,
    datafiles,
    errors,
    hints,
    i18n,
    limits,
    logs,
    metrics,
    moderation,
    release,
    security,
    store,
)
from .games import session as games
from .par import cli as daily_commands
from .routes import BLUEPRINTS, game_api
from .routes import metrics as metrics_routes


def create_app(test_config=None):
    """Build the app: config.DEFAULTS, then FLASK_* environment variables, then ``test_config``."""
    overrides = dict(test_config or {})
    instance_path = (
        overrides.pop("INSTANCE_PATH", None) or os.environ.get("FLASK_INSTANCE_PATH") or config.default_data_folder()
    )
    app = Flask(
        __name__,
        instance_path=os.path.abspath(instance_path),
        template_folder=_shipped("templates"),
        static_folder=_shipped("static"),
    )
    app.json = answers.Answers(app)
    app.jinja_env.globals["version"] = release.VERSION  # in every page's footer
    app.config.from_mapping(config.DEFAULTS)
    app.config.from_prefixed_env()
    app.config.from_mapping(overrides)
    config.check(app.config)  # a bad value stops the start here, in one line naming it
    usable = config.check_instance_folder(app)
    config.derive(app)

    logs.init_app(app)
    metrics.init_app(app)
    store.init_app(
        app,
        session_prefix=f"{game_api.bp.url_prefix}/",
        played=games.has_played_game,
        game_of=games.game_of,
        position_of=games.position_of,
    )
    Compress(app)
    assets.init_app(app)
    errors.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    database.init_app(app, migrate_now=usable)
    backups.init_app(app)  # flask records export|import
    app.cli.add_command(daily_commands)  # flask daily par
    moderation.init_app(app)  # flask records hide|unhide|rename|delete
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    if app.config["METRICS"]:
        app.register_blueprint(metrics_routes.bp)
    limits.init_app(app)  # applies the limits the blueprints and their views declare
    hints.warm_up()
    if usable:
        datafiles.tighten(app.instance_path)  # what earlier versions (and the solver's cache) left there
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies)
    return app


def _shipped(folder):
    """templates/ and static/ sit at the top of the repository, and inside the installed package
    (the wheel maps them there)."""
    inside = os.path.join(os.path.dirname(__file__), folder)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(__file__), os.pardir, folder)
