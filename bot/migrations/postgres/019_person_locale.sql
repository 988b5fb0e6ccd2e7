-- The locale of a person's last interaction (see migrations/sqlite/019_person_locale.sql).
ALTER TABLE people ADD COLUMN locale TEXT;
