"""Records a host took down: hidden from the hall of fame, their pages and API answering 410.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hidden', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.drop_column('hidden')
