"""The tiles each record placed (its positions without its seed) and its count of restores.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

from app.engine import CLASSIC, Game
from app.engine.history import Directions

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

records = sa.table(
    "records",
    sa.column("id", sa.String),
    sa.column("seed", sa.BigInteger),
    sa.column("start", sa.JSON),
    sa.column("directions", sa.LargeBinary),
    sa.column("direction_count", sa.Integer),
    sa.column("tiles", sa.LargeBinary),
)


def upgrade():
    with op.batch_alter_table("records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tiles", sa.LargeBinary(), nullable=True))
        batch_op.add_column(sa.Column("restores", sa.BigInteger(), nullable=False, server_default="0"))
    connection = op.get_bind()
    saved = connection.execute(
        sa.select(records.c.id, records.c.seed, records.c.start, records.c.directions, records.c.direction_count)
    ).all()
    for record_id, seed, start, packed, count in saved:
        _game, tiles = Game.replay_tiles(seed, start, Directions.from_bytes(packed, count, CLASSIC))
        connection.execute(records.update().where(records.c.id == record_id).values(tiles=tiles))
    with op.batch_alter_table("records", schema=None) as batch_op:
        batch_op.alter_column("tiles", existing_type=sa.LargeBinary(), nullable=False)


def downgrade():
    with op.batch_alter_table("records", schema=None) as batch_op:
        batch_op.drop_column("restores")
        batch_op.drop_column("tiles")
