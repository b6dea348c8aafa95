"""Help given to a game's forks (copies put back while the game was held elsewhere), counted on the game.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'fork_help',
        sa.Column('game_id', sa.String(length=16), primary_key=True),
        sa.Column('hints', sa.BigInteger(), nullable=False, server_default='0'),
        sa.Column('autoplay', sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade():
    op.drop_table('fork_help')
