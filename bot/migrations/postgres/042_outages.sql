-- When the process serving each shard last showed it was running (every minute, and as it
-- stops), and the times the bot was out of service: from a shard's last sign of life to the
-- start that followed, when longer than two minutes.  Nobody could act in the servers of that
-- shard meanwhile, so game clocks and the time to answer a time-out leave those periods out.
-- A server belongs to shard (guild_id >> 22) % shard_count (direct messages to shard 0).
CREATE TABLE shards_seen (
    shard_count INTEGER NOT NULL,
    shard_id    INTEGER NOT NULL,
    seen        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
CREATE TABLE outages (
    shard_count INTEGER NOT NULL,
    shard_id    INTEGER NOT NULL,
    since       DOUBLE PRECISION NOT NULL,
    until       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id, since)
);
