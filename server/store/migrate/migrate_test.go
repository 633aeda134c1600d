package migrate_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/migrate"
)

// The tests always need PostgreSQL (servertest.PostgresURL: on
// PHOTOCTL_TEST_DATABASE_URL, or a throwaway cluster), whatever store
// PHOTOCTL_TEST_STORE selects.
func TestMain(m *testing.M) { os.Exit(servertest.Main(m)) }

// seeded is a library built through the real server on SQLite.
type seeded struct {
	dir      string
	user     servertest.User
	assets   []string
	original []byte
	listed   []string // what GET /api/assets shows, in order
}

// seed runs a server on a SQLite file in a new data directory, with the
// ingest pipeline, and fills it through the API: uploads (their tasks run
// to the end), a trashed asset, an album, a stack, a person, an API key.
func seed(t *testing.T) *seeded {
	t.Helper()
	dir := t.TempDir()
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) {
		c.DataDir = dir
		c.Database.URL = app.Secret("sqlite://" + filepath.Join(dir, "photoctl.db"))
	})
	u, token := s.Session()
	out := &seeded{dir: dir, user: u}
	for i := range 4 {
		data := servertest.JPEG(t, 32+i, 24, 10+i)
		a := s.UploadAsset(token, "p"+string(rune('a'+i))+".jpg", data, nil)
		out.assets = append(out.assets, a.ID)
		if i == 0 {
			out.original = data
		}
	}
	for _, id := range out.assets {
		s.WaitForTasks(token, id, time.Minute)
	}
	// Text as OCR reads a sign (servertest runs no models), with its terms.
	st := servertest.OpenStore(t, s.Config)
	require.NoError(t, st.InTx(t.Context(), func(r store.Repos) error {
		return r.AssetTexts().PutOCR(t.Context(), out.assets[0], []catalog.TextLine{{Text: "HARVESTMOONBAKERY"}},
			"harvest moon bakery", time.Now())
	}))
	r := s.Do("POST", "/api/albums", token, api.AlbumCreateRequest{Name: "Holidays"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var album api.Album
	r.JSON(t, &album)
	r = s.Do("POST", "/api/albums/"+album.ID+"/assets", token, api.AlbumAssetsRequest{AssetIDs: out.assets[:3]})
	require.Less(t, r.Status, 300, "%s", r.Body)
	r = s.Do("POST", "/api/stacks", token, api.StackCreateRequest{AssetIDs: out.assets[1:3]})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/people", token, api.PersonCreateRequest{Name: "Ada"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/assets/trash", token, api.AssetIDs{IDs: out.assets[3:]})
	require.Less(t, r.Status, 300, "%s", r.Body)
	s.CreateKey(token, []string{"all"}, nil)
	for _, a := range servertest.List[api.Asset](s, token, "/api/assets?limit=100") {
		out.listed = append(out.listed, a.ID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.App().Shutdown(ctx))
	return out
}

func TestCopyMovesALibraryFromSQLiteToPostgres(t *testing.T) {
	lib := seed(t)
	url := servertest.PostgresURL(t)

	rep, err := migrate.Copy(t.Context(), "sqlite://"+lib.dir, url)
	require.NoError(t, err)
	copied := map[string]migrate.Table{}
	for _, tb := range rep.Tables {
		switch tb.Action {
		case "copied", "seeded":
			require.True(t, tb.Verified(), "%s: %+v", tb.Name, tb)
			copied[tb.Name] = tb
		case "rebuilt":
			copied[tb.Name] = tb
		}
	}
	require.EqualValues(t, 4, copied["search_text"].TargetRows, "every asset's search document is rebuilt")
	require.EqualValues(t, 2, copied["search_names"].TargetRows, "the person's and the album's names")
	for name, rows := range map[string]int64{"users": 1, "libraries": 1, "assets": 4, "albums": 1, "stacks": 1,
		"people": 1, "api_keys": 1, "asset_phashes": 4 * 7} {
		require.Contains(t, copied, name)
		require.Equal(t, rows, copied[name].TargetRows, name)
	}
	require.NotZero(t, copied["events"].TargetRows)
	require.NotZero(t, copied["tasks"].TargetRows)

	t.Run("the copy has statistics and a visibility map", func(t *testing.T) {
		conn, err := pgx.Connect(t.Context(), url)
		require.NoError(t, err)
		defer conn.Close(context.Background())
		var analyzed, vacuumed bool
		require.NoError(t, conn.QueryRow(t.Context(), `SELECT last_analyze IS NOT NULL, last_vacuum IS NOT NULL
			FROM pg_stat_user_tables WHERE relname = 'assets'`).Scan(&analyzed, &vacuumed))
		require.True(t, analyzed, "the planner has the copied rows' statistics")
		require.True(t, vacuumed, "index-only scans need the visibility map")
	})

	t.Run("verify finds the copy equal", func(t *testing.T) {
		rep, err := migrate.Verify(t.Context(), "sqlite://"+lib.dir, url)
		require.NoError(t, err)
		require.Empty(t, rep.Mismatches())
	})

	t.Run("a second copy into the now full database is refused", func(t *testing.T) {
		_, err := migrate.Copy(t.Context(), "sqlite://"+lib.dir, url)
		require.ErrorIs(t, err, migrate.ErrTargetNotEmpty)
	})

	t.Run("the server on PostgreSQL serves the copied library", func(t *testing.T) {
		s := servertest.Start(t, func(c *app.Config) { c.DataDir, c.Database.URL = lib.dir, app.Secret(url) })
		token := s.Login(lib.user).AccessToken
		r := s.Do("GET", "/api/assets/"+lib.assets[0]+"/original", token, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, lib.original, r.Body)
		var listed []string
		for _, a := range servertest.List[api.Asset](s, token, "/api/assets?limit=100") {
			listed = append(listed, a.ID)
		}
		require.Equal(t, lib.listed, listed, "the same timeline: trashed and stacked assets as before")
		var found api.Page[api.SearchHit]
		r = s.Do("GET", "/api/search?query=bakery", token, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r.JSON(t, &found)
		require.Len(t, found.Data, 1, "the rebuilt search documents hold the OCR text's terms")
		require.Equal(t, lib.assets[0], found.Data[0].ID)
		albums := servertest.List[api.Album](s, token, "/api/albums")
		require.Len(t, albums, 1)
		// New rows take ids and sequence numbers after the copied ones.
		r = s.Do("POST", "/api/albums", token, api.AlbumCreateRequest{Name: "After"})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		a := s.UploadAsset(token, "new.jpg", servertest.JPEG(t, 40, 30, 99), nil)
		require.NotEmpty(t, a.ID)
	})

	t.Run("verify names the tables that changed since", func(t *testing.T) {
		rep, err := migrate.Verify(t.Context(), "sqlite://"+lib.dir, url)
		require.ErrorIs(t, err, migrate.ErrMismatch)
		bad := rep.Mismatches()
		for _, name := range []string{"albums", "assets", "events"} {
			require.Contains(t, bad, name)
		}
		require.NotContains(t, bad, "people")
		require.NotContains(t, bad, "stacks")
	})
}

func TestCopyRefusesBadURLs(t *testing.T) {
	_, err := migrate.Copy(t.Context(), "postgres://x", "postgres://y")
	require.ErrorContains(t, err, "want sqlite://PATH")
	_, err = migrate.Copy(t.Context(), "sqlite://"+t.TempDir(), "postgres://y")
	require.ErrorContains(t, err, "photoctl.db")
	f := filepath.Join(t.TempDir(), "x.db")
	require.NoError(t, os.WriteFile(f, nil, 0o600))
	_, err = migrate.Copy(t.Context(), "sqlite://"+f, "mysql://y")
	require.ErrorContains(t, err, "want postgres://")
}
