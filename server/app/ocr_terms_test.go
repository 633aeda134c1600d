package app_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// TestWorkerSplitsTheOCRTextsReadBeforeTheTerms: a text stored before
// migration 0020 has no terms (ocr_terms NULL), so search does not find
// it by the words run together in it; a worker that starts splits it in
// the background, after which search finds it by them, and the asset
// still shows the text as read.
func TestWorkerSplitsTheOCRTextsReadBeforeTheTerms(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	st := servertest.OpenStore(t, s.Config)
	require.NoError(t, st.InTx(t.Context(), func(r store.Repos) error {
		return r.AssetTexts().PutOCR(t.Context(), a.ID, []catalog.TextLine{{Text: "HARVESTMOONBAKERY"}}, "x", time.Now())
	}))
	execSQL(t, s.Config, "UPDATE asset_text SET ocr_terms = NULL")
	search := func(word string) []string { return s.SearchIDs(session, word) }
	require.Empty(t, search("bakery"), "no terms yet")
	require.Equal(t, []string{a.ID}, search("harvestmoonbakery"))

	log := runWorkerUntil(t, s.Config, "ocr texts split", "the worker should split the text at start")
	require.Contains(t, log, "written=1")

	require.Equal(t, []string{a.ID}, search("bakery"))
	require.Equal(t, []string{a.ID}, search("harvest moon"))
	var detail api.AssetDetail
	s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &detail)
	require.Equal(t, "HARVESTMOONBAKERY", *detail.OCRText)
}

// execSQL runs a statement on the database of a server started with cfg,
// beside the server: what no store method does (a row as an older
// version left it).
func execSQL(t *testing.T, cfg app.Config, statement string) {
	t.Helper()
	if cfg.Database.Postgres() {
		conn, err := pgx.Connect(t.Context(), string(cfg.Database.URL))
		require.NoError(t, err)
		defer conn.Close(context.Background())
		_, err = conn.Exec(t.Context(), statement)
		require.NoError(t, err)
		return
	}
	db, err := sql.Open("sqlite3", "file:"+servertest.SQLitePath(t, cfg, "")+"?_busy_timeout=10000")
	require.NoError(t, err)
	defer db.Close()
	_, err = db.ExecContext(t.Context(), statement)
	require.NoError(t, err)
}
