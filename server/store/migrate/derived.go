package migrate

import "strings"

// derived lists the PostgreSQL tables that are indexes built from other
// tables, where SQLite keeps a virtual table (FTS5) instead: they are not
// copied but rebuilt, inside the copy's transaction after every other
// table, by the statements the PostgreSQL migration that made them uses to
// fill them (server/store/postgres/migrations/0013_search.up.sql, whose
// OCR text 0020_ocr_terms extends with its terms; keep these equal when
// they change). Their rows are counted, not checksummed
// against SQLite.
var derived = map[string][]string{
	"search_text": {`INSERT INTO search_text (asset_id, document)
		SELECT a.id, search_document(a.description, concat_ws(' ', t.ocr_text, t.ocr_terms), a.original_file_name, a.capture_wall,
			a.meta_user, a.meta_geo, a.meta_file)
		FROM assets a LEFT JOIN asset_text t ON t.asset_id = a.id`},
	"search_names": {
		`INSERT INTO search_names (ref_id, kind, library_id, document)
			SELECT id, 'person', library_id, search_words(name, 'A') FROM people WHERE name <> ''`,
		`INSERT INTO search_names (ref_id, kind, library_id, document)
			SELECT id, 'album', library_id, search_words(name, 'A') FROM albums WHERE name <> ''`,
	},
}

// sqliteDerived lists SQLite tables that belong to an index PostgreSQL
// rebuilds (derived above) though they are not virtual tables themselves.
var sqliteDerived = map[string]string{
	"search_name_refs": "part of SQLite's name index; PostgreSQL rebuilds search_names",
}

// derivedColumns are target columns SQLite computes at query time instead
// of storing: table.column → the source column and the function of it.
var derivedColumns = map[string]struct {
	from   string
	derive func(string) string
}{
	// SQLite folds with casefold() (strings.ToLower) in the query.
	"api_keys.name_fold": {"name", strings.ToLower},
}

// seededTables are the tables the PostgreSQL migrations fill themselves
// (0003_aggregates: the geo cell levels): the only ones an empty target may
// hold rows in, and then the same rows as the source.
var seededTables = map[string]bool{"geo_levels": true}
