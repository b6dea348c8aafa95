"""Records shared by link without being listed (``listed``), and the solver's score after each move
of a day's par game (``daily_par.scores``), for the par beside a game of as many moves.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""
import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('listed', sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table('daily_par', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scores', sa.LargeBinary(), nullable=True))


def downgrade():
    with op.batch_alter_table('daily_par', schema=None) as batch_op:
        batch_op.drop_column('scores')
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.drop_column('listed')
