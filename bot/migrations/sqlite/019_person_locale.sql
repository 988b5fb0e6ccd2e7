-- The Discord locale of a person's last interaction with the bot (their client's language, such
-- as 'es-ES'; NULL: never seen).  Discord gives a person's language only with an interaction, so
-- the bot keeps the last one it saw to write that person's direct messages in it.
ALTER TABLE people ADD COLUMN locale TEXT;
