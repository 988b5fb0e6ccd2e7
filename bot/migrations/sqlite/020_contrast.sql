-- The high-contrast palette (white paper, darker ink and colours) for the pictures a person
-- receives privately (/me contrast), and for a server's public pictures (/game contrast).
ALTER TABLE people ADD COLUMN contrast INTEGER NOT NULL DEFAULT 0;
ALTER TABLE server_settings ADD COLUMN contrast INTEGER NOT NULL DEFAULT 0;
