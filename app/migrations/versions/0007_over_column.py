"""A record's column for a game with no move left is named as the code and the API name it: over.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.alter_column('finished', new_column_name='over')


def downgrade():
    with op.batch_alter_table('records', schema=None) as batch_op:
        batch_op.alter_column('over', new_column_name='finished')
