"""The help given to a game from another session, its forks' and that asked on its board, is named
as the code names it: help_elsewhere (it held the forks' alone).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.rename_table('fork_help', 'help_elsewhere')


def downgrade():
    op.rename_table('help_elsewhere', 'fork_help')
