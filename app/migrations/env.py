"""Alembic's environment for the records database (Flask-Migrate's, trimmed).

The app's own logging is left as it is (no fileConfig), and on PostgreSQL replicas that
start together take turns: an advisory lock held for the migration's transaction.
"""

import logging

from alembic import context
from flask import current_app
from sqlalchemy import text

logger = logging.getLogger("alembic.env")
MIGRATION_LOCK = 2048_16  # any constant shared by every replica

config = context.config
target_db = current_app.extensions["migrate"].db
config.set_main_option("sqlalchemy.url", target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"))


def run_migrations_offline():
    """Print the SQL (flask db upgrade --sql) instead of running it."""
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_db.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    def skip_empty_revisions(_context, _revision, directives):
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    conf_args.setdefault("process_revision_directives", skip_empty_revisions)
    with target_db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
