"""Today's game: a record knows its day and whether it was ranked; the day's ranked attempts by
address (for FLASK_DAILY_ADDRESS_LIMIT) and the solver's par of each day.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('day', sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column('ranked', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index('records_by_day', ['day', 'ranked', 'score'])
    op.create_table(
        'daily_attempts',
        sa.Column('day', sa.String(length=10), primary_key=True),
        sa.Column('address', sa.String(length=32), primary_key=True),
        sa.Column('number', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.String(length=16), nullable=False),
    )
    op.create_table(
        'daily_par',
        sa.Column('day', sa.String(length=10), primary_key=True),
        sa.Column('score', sa.BigInteger(), nullable=False),
        sa.Column('max_tile', sa.Integer(), nullable=False),
        sa.Column('moves', sa.BigInteger(), nullable=False),
        sa.Column('budget_ms', sa.Float(), nullable=False),
        sa.Column('computed', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade():
    op.drop_table('daily_par')
    op.drop_table('daily_attempts')
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.drop_index('records_by_day')
        batch_op.drop_column('ranked')
        batch_op.drop_column('day')
