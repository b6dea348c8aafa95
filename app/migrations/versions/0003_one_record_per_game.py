"""One record per game: the game a record saves (its id, so sharing again updates the record), and
the moves it took back.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_id', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('undos', sa.BigInteger(), nullable=False, server_default='0'))
        batch_op.create_index('records_by_game', ['game_id'], unique=True)


def downgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.drop_index('records_by_game')
        batch_op.drop_column('undos')
        batch_op.drop_column('game_id')
