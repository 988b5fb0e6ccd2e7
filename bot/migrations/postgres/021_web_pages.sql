-- The web side's capability links: one unguessable token per game (kind 'game', ref the session
-- id), league (kind 'league', ref the league id) or person in one server (kind 'person', scope
-- the server id, ref the user id; scope is 0 for the others), made when the thing is made or,
-- for older rows, when a link is first needed.  A page's address carries the token; a wrong one
-- finds nothing.
CREATE TABLE web_links (
    kind       TEXT NOT NULL CHECK (kind IN ('game', 'league', 'person')),
    scope      BIGINT NOT NULL DEFAULT 0,
    ref        BIGINT NOT NULL,
    token      TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (kind, scope, ref)
);

-- A server's choice for its web pages (/game web): 'links' (pages open to whoever holds a
-- link, the default when no row is here) or 'off' (no page of the server is served).
CREATE TABLE web_servers (
    guild_id   BIGINT PRIMARY KEY,
    pages      TEXT NOT NULL CHECK (pages IN ('links', 'off')),
    updated_at TEXT NOT NULL
);
