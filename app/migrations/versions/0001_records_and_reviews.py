"""Records of games and the solver's reviews of their positions.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('records',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('score', sa.BigInteger(), nullable=False),
    sa.Column('max_tile', sa.Integer(), nullable=False),
    sa.Column('moves', sa.BigInteger(), nullable=False),
    sa.Column('verified', sa.Boolean(), nullable=False),
    sa.Column('hints', sa.BigInteger(), nullable=False),
    sa.Column('autoplay', sa.Boolean(), nullable=False),
    sa.Column('finished', sa.Boolean(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('start', sa.JSON(), nullable=True),
    sa.Column('directions', sa.LargeBinary(), nullable=False),
    sa.Column('direction_count', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.create_index('records_hall_of_fame', ['verified', 'score'], unique=False)

    op.create_table('reviews',
    sa.Column('record_id', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('best', sa.String(length=5), nullable=False),
    sa.Column('loss', sa.Float(), nullable=False),
    sa.Column('scores', sa.JSON(), nullable=False),
    sa.Column('mistake', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['record_id'], ['records.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('record_id', 'position')
    )


def downgrade():
    op.drop_table('reviews')
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.drop_index('records_hall_of_fame')

    op.drop_table('records')
