"""Records of every board size: each record's size (the classic 4 for every record before it), and
the hall of fame's index by size.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("records") as batch:
        batch.add_column(sa.Column("size", sa.Integer(), nullable=False, server_default="4"))
    with op.batch_alter_table("records") as batch:
        batch.drop_index("records_hall_of_fame")
        batch.create_index("records_hall_of_fame", ["size", "verified", "score"])


def downgrade():
    with op.batch_alter_table("records") as batch:
        batch.drop_index("records_hall_of_fame")
        batch.create_index("records_hall_of_fame", ["verified", "score"])
        batch.drop_column("size")
