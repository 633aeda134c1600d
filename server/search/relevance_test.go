package search_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/norm"

	"github.com/photoctl/photoctl/ingest/wordsplit"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// The relevance set: real photos (the test photos `make models` fetches
// from Debian and npm packages) and pictures of signs, tagged the way
// cameras, phones and people tag them (GPS positions, captions, file
// names, camera makes), uploaded to the real server and read by its whole
// pipeline (exiftool, the geocoder, OCR, the built-in describer); then
// queries with the assets a person asking them wants.

// relevancePhoto is one asset of the set: a test photo (photo, from the
// ML directory's photos/) or a picture of a sign (sign, one line each),
// uploaded as name with the exiftool arguments tags (JPEGs only).
type relevancePhoto struct {
	key   string
	photo string
	sign  []string
	name  string
	tags  []string
}

// Positions (exiftool arguments) of the places of the set.
var (
	capeCanaveral = gps(28.39, -80.60)
	capeTown      = gps(-33.925, 18.424)
	newYork       = gps(40.7128, -74.0060)
	york          = gps(53.958, -1.080)
)

var relevancePhotos = []relevancePhoto{
	{key: "rocket", photo: "skimage-rocket.jpg", name: "IMG_1001.JPG", tags: capeCanaveral},
	{key: "temple", photo: "sklearn-china.jpg", name: "IMG_1002.JPG", tags: capeTown},
	{key: "flower", photo: "sklearn-flower.jpg", name: "IMG_1003.JPG",
		tags: append([]string{"-ImageDescription=Flowers in the park"}, newYork...)},
	{key: "friend", photo: "pigo-sample.jpg", name: "IMG_1004.JPG",
		tags: append([]string{"-ImageDescription=A new friend"}, york...)},
	{key: "hopper", photo: "matplotlib-grace-hopper.jpg", name: "hopper.jpg",
		tags: []string{"-ImageDescription=Rear Admiral Grace Hopper, computer scientist"}},
	{key: "hubble", photo: "skimage-hubble.jpg", name: "IMG_1005.JPG",
		tags: []string{"-ImageDescription=Hubble deep field: thousands of galaxies"}},
	{key: "sun", photo: "face-api-sample1.jpg", name: "IMG_1006.JPG",
		tags: []string{"-ImageDescription=The sun over the hills behind the old farm, late in a long summer"}},
	{key: "sunset", photo: "face-api-sample2.jpg", name: "sunset.jpg",
		tags: []string{"-ImageDescription=Sunset at the harbour"}},
	{key: "canon", photo: "tracking-faces.jpg", name: "IMG_1007.JPG", tags: []string{"-Make=Canon", "-Model=Canon EOS 5D"}},
	{key: "team", photo: "face-api-sample3.jpg", name: "IMG_1008.JPG"},
	{key: "coffee", photo: "skimage-coffee.png", name: "morning-espresso.png"},
	{key: "motorcycle", photo: "skimage-motorcycle.png", name: "motorcycle-trip.png"},
	{key: "astronaut", photo: "skimage-astronaut.png", name: "astronaut.png"},
	{key: "cat", photo: "skimage-chelsea.png", name: "IMG_1009.PNG"},
	{key: "parking", sign: []string{"NO PARKING"}, name: "IMG_1010.PNG"},
	{key: "times", sign: []string{"OPEN AT ALL TIMES"}, name: "IMG_1011.PNG"},
	{key: "cafe", sign: []string{"HARBOUR CAFE", "Open daily 1987"}, name: "IMG_1012.PNG"},
}

// relevanceQuery is a query and the assets (keys) it should find, best
// first where ordered says they are ranked. stemmed are assets it finds
// though a person would not want them, because the index reduces words to
// their stems (both stores' English stemmers make "parking" "park", so
// "Flowers in the park" is a hit for "parking"): the test allows them, and
// they count against precision.
type relevanceQuery struct {
	query   string
	want    []string
	ordered bool
	stemmed []string
}

var relevanceQueries = []relevanceQuery{
	{query: "cape canaveral", want: []string{"rocket"}},
	{query: "canaveral", want: []string{"rocket"}},
	{query: "cape", want: []string{"rocket", "temple"}},
	{query: "cape town", want: []string{"temple"}},
	{query: "new york", want: []string{"flower"}},
	{query: "york", want: []string{"flower", "friend"}},
	{query: "florida", want: []string{"rocket"}},
	{query: "times", want: []string{"times"}},
	{query: "parking", want: []string{"parking"}, stemmed: []string{"flower"}},
	{query: "harbour", want: []string{"cafe", "sunset"}},
	{query: "harbour cafe", want: []string{"cafe"}},
	{query: "espresso", want: []string{"coffee"}},
	{query: "espreso", want: []string{"coffee"}},
	{query: "motorcyc", want: []string{"motorcycle"}},
	{query: "sun", want: []string{"sun", "sunset"}, ordered: true},
	{query: "sunset harbour", want: []string{"sunset"}},
	{query: "grace hopper", want: []string{"hopper"}},
	{query: "hubble galaxies", want: []string{"hubble"}},
	{query: "canon", want: []string{"canon"}},
	{query: "astronaut", want: []string{"astronaut"}},
	{query: "zebra", want: nil},
	{query: "cape zebra", want: nil},
	{query: "galaxy flowers", want: nil},
}

// gps returns the exiftool arguments of a position.
func gps(lat, lon float64) []string {
	latRef, lonRef := "N", "E"
	if lat < 0 {
		latRef, lat = "S", -lat
	}
	if lon < 0 {
		lonRef, lon = "W", -lon
	}
	return []string{fmt.Sprintf("-GPSLatitude=%g", lat), "-GPSLatitudeRef=" + latRef,
		fmt.Sprintf("-GPSLongitude=%g", lon), "-GPSLongitudeRef=" + lonRef}
}

// relevanceLibrary is the set uploaded to a real server and read by its
// pipeline: the server, a session of the set's owner and the assets' ids
// by key.
type relevanceLibrary struct {
	*servertest.Server
	session string
	ids     map[string]string
}

// newRelevanceLibrary uploads the set and waits for the pipeline.
func newRelevanceLibrary(tb testing.TB) *relevanceLibrary {
	tb.Helper()
	for _, tool := range []string{"exiftool", "ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Skipf("%s is not installed", tool)
		}
	}
	dir := servertest.MLDir(tb)
	s := servertest.Start(tb, servertest.WithML(tb))
	_, session := s.Session()
	lib := &relevanceLibrary{Server: s, session: session, ids: map[string]string{}}
	for _, p := range relevancePhotos {
		var data []byte
		if p.sign != nil {
			data = servertest.TextPNG(tb, p.sign...)
		} else {
			path := filepath.Join(tb.TempDir(), p.name)
			src, err := os.ReadFile(filepath.Join(dir, "photos", p.photo))
			require.NoError(tb, err)
			require.NoError(tb, os.WriteFile(path, src, 0o600))
			if len(p.tags) > 0 {
				out, err := exec.Command("exiftool", append([]string{"-q", "-overwrite_original"}, append(p.tags, path)...)...).CombinedOutput()
				require.NoError(tb, err, "exiftool: %s", out)
			}
			data, err = os.ReadFile(path)
			require.NoError(tb, err)
		}
		lib.ids[p.key] = s.UploadAsset(session, p.name, data, nil).ID
	}
	for key, id := range lib.ids {
		for _, task := range s.WaitForTasks(session, id, 10*time.Minute) {
			require.Contains(tb, []string{"succeeded", "skipped"}, task.State, "%s: %s: %v", key, task.Kind, task.Error)
		}
	}
	return lib
}

// search returns the keys of the hits of a query, best first.
func (l *relevanceLibrary) search(tb testing.TB, query string) []string {
	tb.Helper()
	r := l.Do("GET", "/api/search?"+url.Values{"query": {query}, "limit": {"200"}}.Encode(), l.session, nil)
	require.Equal(tb, http.StatusOK, r.Status, "%s", r.Body)
	var hits api.Page[api.SearchHit]
	r.JSON(tb, &hits)
	keys := []string{}
	for _, h := range hits.Data {
		keys = append(keys, l.key(h.ID))
	}
	return keys
}

// key returns the key of an asset id.
func (l *relevanceLibrary) key(id string) string {
	for k, v := range l.ids {
		if v == id {
			return k
		}
	}
	return id
}

// indexedText returns the text an asset is found by, as GET
// /api/assets/{id} shows it: description, OCR text (and the parts of its
// run-together words, as the index holds them), place, file name and
// camera.
func (l *relevanceLibrary) indexedText(tb testing.TB, key string) string {
	tb.Helper()
	var a struct {
		Description      *string        `json:"description"`
		OriginalFileName string         `json:"original_file_name"`
		OCRText          *string        `json:"ocr_text"`
		Metadata         map[string]any `json:"metadata"`
		Exif             map[string]any `json:"exif"`
	}
	r := l.Do("GET", "/api/assets/"+l.ids[key], l.session, nil)
	require.Equal(tb, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(tb, &a)
	// The OCR text is indexed with its run-together words' parts too.
	parts := []string{deref(a.Description), a.OriginalFileName, deref(a.OCRText), wordsplit.Terms(deref(a.OCRText))}
	for _, f := range []string{"city", "state", "country", "sublocation", "place_name", "display_label", "description",
		"make", "model", "lens_model"} {
		for _, m := range []map[string]any{a.Metadata, a.Exif} {
			if v, ok := m[f].(string); ok {
				parts = append(parts, v)
			}
		}
	}
	return strings.Join(parts, " ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// words splits text as the index does: runs of letters and digits, case
// and diacritics folded.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(norm.NFD.String(text)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// holds reports whether text holds a query word: as a word, the beginning
// of one, a word of the same stem (sharing all but its last three
// letters, four at least), or a word one edit from it (a correction).
func holds(text []string, word string) bool {
	for _, w := range text {
		shared := 0
		for shared < len(w) && shared < len(word) && w[shared] == word[shared] {
			shared++
		}
		if strings.HasPrefix(w, word) || (shared >= 4 && shared >= len(word)-3) || oneEditApart(w, word) {
			return true
		}
	}
	return false
}

// oneEditApart reports whether a and b are one edit apart (a letter
// left out, added, changed or two neighbours swapped), or a begins with
// such a word of b's length.
func oneEditApart(a, b string) bool {
	if len(b) < 4 {
		return false
	}
	for _, cut := range []int{len(b) - 1, len(b), len(b) + 1} {
		if cut <= len(a) && editDistance(a[:cut], b) <= 1 {
			return true
		}
	}
	return false
}

// editDistance is the optimal string alignment distance of a and b.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// relevance is what the set's queries found: precision and recall
// averaged over the queries (a query expecting nothing and finding
// nothing counts 1 for both), the hits that do not hold every word of
// their query, and each query's hits.
type relevance struct {
	precision, recall float64
	falseHits         []string
	hits              map[string][]string
}

// measure runs every query of the set.
func (l *relevanceLibrary) measure(tb testing.TB) relevance {
	tb.Helper()
	r := relevance{hits: map[string][]string{}}
	texts := map[string][]string{}
	for _, q := range relevanceQueries {
		got := l.search(tb, q.query)
		r.hits[q.query] = got
		right := 0
		for _, k := range got {
			if slices.Contains(q.want, k) {
				right++
			}
			if texts[k] == nil {
				texts[k] = words(l.indexedText(tb, k))
			}
			for _, w := range words(q.query) {
				if !holds(texts[k], w) {
					r.falseHits = append(r.falseHits, fmt.Sprintf("%q found %s, whose text does not hold %q: %q",
						q.query, k, w, strings.Join(texts[k], " ")))
				}
			}
		}
		p, rc := 1.0, 1.0
		if len(got) > 0 {
			p = float64(right) / float64(len(got))
		}
		if len(q.want) > 0 {
			rc = float64(right) / float64(len(q.want))
		}
		r.precision += p / float64(len(relevanceQueries))
		r.recall += rc / float64(len(relevanceQueries))
	}
	return r
}

// TestSearchRelevance runs the relevance set's queries on the real server
// and pipeline: every query finds what it should and nothing else but its
// stems' hits (a recall of 1), ranked queries in their order, and no hit
// lacks a word of its query.
func TestSearchRelevance(t *testing.T) {
	lib := newRelevanceLibrary(t)
	r := lib.measure(t)
	for _, q := range relevanceQueries {
		got := r.hits[q.query]
		if q.ordered {
			assert.Equal(t, q.want, got, "%q, best first", q.query)
		} else {
			assert.ElementsMatch(t, append(slices.Clone(q.want), q.stemmed...), got, "%q", q.query)
		}
	}
	assert.Empty(t, r.falseHits)
	assert.InDelta(t, 1.0, r.recall, 1e-9)
	t.Logf("precision %.3f, recall %.3f over %d queries", r.precision, r.recall, len(relevanceQueries))
}

// BenchmarkSearchRelevance reports the relevance set's precision and
// recall (averaged over its queries), its hits that lack a word of their
// query, and the time a query of the set takes on the real server.
func BenchmarkSearchRelevance(b *testing.B) {
	lib := newRelevanceLibrary(b)
	var r relevance
	b.ResetTimer()
	for b.Loop() {
		for _, q := range relevanceQueries {
			lib.search(b, q.query)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(relevanceQueries)), "ns/query")
	r = lib.measure(b)
	for _, q := range relevanceQueries {
		b.Logf("%-16q want %v, found %v", q.query, q.want, r.hits[q.query])
	}
	for _, f := range r.falseHits {
		b.Log(f)
	}
	b.ReportMetric(r.precision, "precision")
	b.ReportMetric(r.recall, "recall")
	b.ReportMetric(float64(len(r.falseHits)), "false-hits")
	b.ReportMetric(0, "ns/op")
}
