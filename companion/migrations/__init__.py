"""Alembic migrations of the session store, shipped inside the package so that an installed app
can upgrade an older database on start (see companion.store.upgrade)."""
