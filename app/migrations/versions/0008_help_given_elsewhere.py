"""Help given to a game from another session: its forks' and that asked on its board, named as the
code names it, help_elsewhere (it held the forks' alone); and the boards each address asked the
solver about on a day, for the day's ranked attempts.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.rename_table('fork_help', 'help_elsewhere')
    op.create_table(
        'asked_boards',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('address', sa.String(length=32), nullable=False),
        sa.Column('board', sa.String(length=20), nullable=False),
    )
    op.create_index('asked_boards_by_address', 'asked_boards', ['day', 'address', 'board'])


def downgrade():
    op.drop_index('asked_boards_by_address', table_name='asked_boards')
    op.drop_table('asked_boards')
    op.rename_table('help_elsewhere', 'fork_help')
