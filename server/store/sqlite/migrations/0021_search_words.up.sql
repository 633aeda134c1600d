-- The words of the content-search indexes, one row per distinct word
-- (fts5vocab; nothing is stored: it reads the FTS5 index itself). Search
-- asks them whether an indexed word begins with a query word as typed
-- (search.go, HasLonger), which a prefix query cannot tell: FTS5 stems a
-- prefix before looking it up, so "imes"* is read as "im"* and finds
-- "img". SQLite only: PostgreSQL's prefix queries have no such need
-- (postgres/search.go).
CREATE VIRTUAL TABLE search_text_words USING fts5vocab(search_text, row);
CREATE VIRTUAL TABLE search_names_words USING fts5vocab(search_names, row);
