package httpapi_test

import (
	"context"
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// Hostile uploads, downloads, filters and credentials (issue 14, "Path
// traversal and injection"). Fuzz targets for the same surface are in
// fuzz_test.go.

// TestHostileUploadNamesStaySafe uploads under names meant to escape the
// data directory or mislead a reader: each is stored as a harmless base
// name, no file lands outside the data directory, and the download's
// Content-Disposition is one well-formed header naming it.
func TestHostileUploadNamesStaySafe(t *testing.T) {
	s := servertest.Start(t)
	_, token := s.Session()
	long := strings.Repeat("ä", 200) + ".jpg" // 404 bytes
	cases := []struct{ name, want string }{
		{"../../../../tmp/evil.jpg", "evil.jpg"},
		{`..\..\windows\evil2.jpg`, "evil2.jpg"},
		{"/etc/passwd", "passwd"},
		{"..", ""},
		{"photo\u202egpj.exe", "photogpj.exe"}, // RTL override dropped
		{"x\u2066y\u2069.jpg", "xy.jpg"},
		{"re\u0301sume\u0301.jpg", "re\u0301sume\u0301.jpg"}, // NFD kept as sent
		{"r\u00e9sum\u00e9.jpg", "r\u00e9sum\u00e9.jpg"},     // NFC kept as sent
		{"a\uff0f..\uff0fb.jpg", "a\uff0f..\uff0fb.jpg"},     // fullwidth solidus is no separator
		{"quote\"semi;colon%20pct'.jpg", "quote\"semi;colon%20pct'.jpg"},
		{long, long[:254]}, // cut at 255 bytes on a rune boundary
	}
	for i, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			a := servertest.Expect[api.Asset](t, s.Upload(token, c.name, servertest.JPEG(t, 8, 8, 100+i), nil), http.StatusCreated)
			if c.want == "" {
				require.NotContains(t, a.OriginalFileName, "..")
				require.NotEmpty(t, a.OriginalFileName)
			} else {
				require.Equal(t, c.want, a.OriginalFileName)
			}
			for _, r := range a.OriginalFileName {
				require.False(t, unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r), "%q", a.OriginalFileName)
			}
			require.NotContains(t, a.OriginalFileName, "/")
			require.LessOrEqual(t, len(a.OriginalFileName), 255)

			d := s.Do("GET", "/api/assets/"+a.ID+"/original", token, nil)
			require.Equal(t, http.StatusOK, d.Status)
			requireSafeDisposition(t, d.Header.Values("Content-Disposition"), a.OriginalFileName)
		})
	}
	// Every file the server wrote is under its data directory, and none
	// is named after an upload.
	parent := filepath.Dir(s.Config.DataDir)
	require.NoError(t, filepath.WalkDir(parent, func(path string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		if !d.IsDir() {
			rel, err := filepath.Rel(s.Config.DataDir, path)
			require.NoError(t, err)
			require.False(t, strings.HasPrefix(rel, ".."), "file outside the data dir: %s", path)
			require.NotContains(t, []string{"evil.jpg", "evil2.jpg", "passwd"}, d.Name())
		}
		return nil
	}))
	_, err := os.Stat("/tmp/evil.jpg")
	require.ErrorIs(t, err, fs.ErrNotExist)
}

// requireSafeDisposition checks one attachment header: printable ASCII
// only (no header splitting), a quoted ASCII fallback name, and an RFC 5987
// filename* that decodes to the stored name.
func requireSafeDisposition(t *testing.T, values []string, name string) {
	t.Helper()
	require.Len(t, values, 1)
	v := values[0]
	for i := 0; i < len(v); i++ {
		require.True(t, v[i] >= 0x20 && v[i] < 0x7f, "byte %#x in %q", v[i], v)
	}
	typ, params, err := mime.ParseMediaType(v)
	require.NoError(t, err, "%q", v)
	require.Equal(t, "attachment", typ)
	require.NotContains(t, params["filename"], "/")
	// mime decodes filename* into "filename" when both are present; read
	// the extended value directly.
	i := strings.Index(v, "filename*=UTF-8''")
	require.GreaterOrEqual(t, i, 0, "%q", v)
	ext := v[i+len("filename*=UTF-8''"):]
	require.NotContains(t, ext, ";")
	got, err := url.PathUnescape(ext)
	require.NoError(t, err)
	require.Equal(t, name, got)
}

// sqlMeta are strings that break naively built SQL, LIKE patterns or
// FTS5 queries.
var sqlMeta = []string{`'`, `"`, `;`, `--`, `%`, `_`, `\`, "\x00", `' OR '1'='1`, `"; DROP TABLE assets; --`,
	`%' --`, `\%`, `a*`, `NEAR(a b)`, `"unterminated`, `col:term`, `^start`, `-neg`, `(`, `)`, `AND`, `OR NOT`}

// TestSQLMetacharactersInTextFilters sends each metacharacter string to
// every text filter: each answers a normal 200 (or a 422 for a value the
// filter's grammar refuses), never a 500, and the library is unchanged.
func TestSQLMetacharactersInTextFilters(t *testing.T) {
	s := servertest.Start(t)
	_, token := s.Session()
	a := s.UploadAsset(token, "a'b\";--%_.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	for _, name := range []string{"50% off_\\", "O'Brien"} {
		r := s.Do("POST", "/api/people", token, map[string]any{"name": name})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		r = s.Do("POST", "/api/albums", token, api.AlbumCreateRequest{Name: name})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	}

	filters := []string{"/api/search?query=", "/api/api-keys?name=", "/api/people?name=", "/api/tasks?kind=",
		"/api/assets?ids=", "/api/assets?starting_after_id=", "/api/assets?album_id=", "/api/assets?person_ids=",
		"/api/assets?stack_id=", "/api/album-assets?album_id=", "/api/faces?person_id=", "/api/people?ids=",
		"/api/events?starting_after_id=", "/api/assets/counts?album_id="}
	for _, f := range filters {
		for _, m := range sqlMeta {
			r := s.Do("GET", f+url.QueryEscape(m), token, nil)
			require.Contains(t, []int{200, 404, 422}, r.Status, "GET %s%q: %s", f, m, r.Body)
		}
	}
	// The people name filter finds a substring: "%" and "_" are no
	// wildcards, a quote is a quote.
	for q, want := range map[string]int{"%": 1, "_": 1, "'": 1, "\\": 1, "%_": 0, "": 2} {
		require.Len(t, servertest.List[api.Person](s, token, "/api/people?name="+url.QueryEscape(q)), want, "name=%q", q)
	}
	require.Len(t, servertest.List[api.Album](s, token, "/api/albums"), 2)
	// The Immich search and the POST search form take text too.
	key := s.CreateKey(token, []string{"all"}, nil)
	for _, m := range sqlMeta {
		body, _ := json.Marshal(map[string]any{"type": m, "order": m, "visibility": m, "trashedAfter": m})
		req, err := http.NewRequest("POST", s.URL+"/immich/api/search/metadata", strings.NewReader(string(body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Less(t, resp.StatusCode, 500, "immich search %q", m)
	}
	got := servertest.List[api.Asset](s, token, "/api/assets")
	require.Len(t, got, 1)
	require.Equal(t, a.ID, got[0].ID)
}

// jwtPart base64url-encodes a JWT header or body.
func jwtPart(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestForgedTokensAreRefused sends access tokens an attacker can make
// without the server's key: alg none, HS256 under a guessed key, RS256
// and ES256 headers (key confusion), a real token with a changed body or
// a stripped signature. Each is a 401; the real token still works.
func TestForgedTokensAreRefused(t *testing.T) {
	s := servertest.Start(t)
	u, token := s.Session()
	parts := strings.Split(token, ".")
	require.Len(t, parts, 3)
	var claims map[string]any
	body, err := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(body, &claims))
	require.Equal(t, u.ID, claims["sub"])

	hs256 := func(header, payload string, key []byte) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(header + "." + payload))
		return header + "." + payload + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	pub, err := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	require.NoError(t, err)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	rs256 := func(payload string) string {
		h := jwtPart(t, map[string]any{"alg": "RS256", "typ": "JWT"})
		sum := sha256.Sum256([]byte(h + "." + payload))
		sig, err := rsa.SignPKCS1v15(rand.Reader, rsaKey, crypto.SHA256, sum[:])
		require.NoError(t, err)
		return h + "." + payload + "." + base64.RawURLEncoding.EncodeToString(sig)
	}

	later := claims
	later["exp"] = float64(time.Now().Add(24 * time.Hour).Unix())
	payload := jwtPart(t, later)
	forged := map[string]string{
		"alg none":            jwtPart(t, map[string]any{"alg": "none", "typ": "JWT"}) + "." + parts[1] + ".",
		"alg None":            jwtPart(t, map[string]any{"alg": "None"}) + "." + parts[1] + ".",
		"HS256 empty key":     hs256(parts[0], parts[1], nil),
		"HS256 guessed key":   hs256(parts[0], parts[1], []byte("photoctl")),
		"HS256 public key":    hs256(jwtPart(t, map[string]any{"alg": "HS256", "typ": "JWT"}), payload, pubPEM),
		"RS256 own key":       rs256(payload),
		"HS512 header":        hs256(jwtPart(t, map[string]any{"alg": "HS512"}), parts[1], nil),
		"changed body":        parts[0] + "." + payload + "." + parts[2],
		"stripped signature":  parts[0] + "." + parts[1] + ".",
		"no signature part":   parts[0] + "." + parts[1],
		"kid path traversal":  hs256(jwtPart(t, map[string]any{"alg": "HS256", "kid": "../../../../dev/null"}), parts[1], nil),
		"jku header":          hs256(jwtPart(t, map[string]any{"alg": "HS256", "jku": "http://127.0.0.1:1/k"}), parts[1], nil),
		"garbage":             "a.b.c",
		"huge":                strings.Repeat("A", 64<<10),
		"unicode":             "\u202e.\u00ff.x",
		"api key prefix only": "pk_",
	}
	for name, tok := range forged {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest("GET", s.URL+"/api/users/me", nil)
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				// The 64 KiB header: the server answers 431 and closes
				// while the client still writes, which the client may
				// see as the reset instead of the answer. Refused either way.
				require.True(t, errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
					strings.Contains(err.Error(), "connection reset by peer"), "%v", err)
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			require.Contains(t, []int{http.StatusUnauthorized, http.StatusRequestHeaderFieldsTooLarge, http.StatusBadRequest},
				resp.StatusCode, "%s", body)
		})
	}
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", token, nil).Status)
}

// TestSecretsAreStoredOnlyAsHashes reads the SQLite files (database and
// WAL) for the API key and refresh token secrets: neither is there in
// clear, and their SHA-256 is (the lookup key).
func TestSecretsAreStoredOnlyAsHashes(t *testing.T) {
	servertest.SkipOnPostgres(t, "reads the SQLite files and dumps them with the sqlite3 CLI")
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 CLI not installed (make deps installs it)")
	}
	s := servertest.Start(t)
	u, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	tokens := s.Login(u)
	require.NotEmpty(t, tokens.RefreshToken)

	db := filepath.Join(s.Config.DataDir, "photoctl.db")
	var raw []byte
	for _, f := range []string{db, db + "-wal"} {
		b, err := os.ReadFile(f)
		if !os.IsNotExist(err) {
			require.NoError(t, err)
		}
		raw = append(raw, b...)
	}
	require.NotEmpty(t, raw)
	for _, secret := range []string{key, tokens.RefreshToken, u.Password} {
		require.NotContains(t, string(raw), secret, "a secret is stored in clear")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dump, err := exec.CommandContext(ctx, sqlite3, "-readonly", db, ".dump").Output()
	require.NoError(t, err)
	for _, secret := range []string{key, tokens.RefreshToken} {
		require.NotContains(t, string(dump), secret)
		sum := sha256.Sum256([]byte(secret))
		require.Contains(t, strings.ToUpper(string(dump)), strings.ToUpper(hex.EncodeToString(sum[:])),
			"the secret's SHA-256 is what is stored")
	}
}

// TestSignInIsRateLimitedPerAccount guesses one account's password from
// one address, then tries it from another address: the account's bucket
// is spent (429 with Retry-After), while that address can still sign in
// to another account.
func TestSignInIsRateLimitedPerAccount(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.LoginRate = 0.01
		c.RateLimit.LoginBurst = 3
	})
	alice, bob := s.CreateUser(), s.CreateUser()
	from := func(ip string, email, password string) *http.Response {
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{
			LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext}}
		body, _ := json.Marshal(api.LoginRequest{Email: email, Password: password})
		resp, err := client.Post(s.URL+"/api/auth/login", "application/json", strings.NewReader(string(body)))
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	for range 3 {
		require.Equal(t, http.StatusUnauthorized, from("127.0.0.1", alice.Email, "guess").StatusCode)
	}
	// Another address, the same account (its e-mail in another case).
	r := from("127.0.0.2", strings.ToUpper(alice.Email), alice.Password)
	require.Equal(t, http.StatusTooManyRequests, r.StatusCode)
	require.NotEmpty(t, r.Header.Get("Retry-After"))
	// That address is not blocked for other accounts.
	require.Equal(t, http.StatusOK, from("127.0.0.2", bob.Email, bob.Password).StatusCode)
}

// TestControlCharactersInUploadNames sends control characters in a file
// name raw (a malformed part header: 422 naming the problem) and RFC 5987
// encoded (filename*: decoded, then the controls and bidi marks dropped).
func TestControlCharactersInUploadNames(t *testing.T) {
	s := servertest.Start(t)
	_, token := s.Session()
	send := func(disposition string, seed int) *servertest.Response {
		return s.Multipart("POST", "/api/assets", token, func(mw *multipart.Writer) {
			w, err := mw.CreatePart(textproto.MIMEHeader{"Content-Disposition": {disposition}})
			require.NoError(t, err)
			_, err = w.Write(servertest.JPEG(t, 8, 8, seed))
			require.NoError(t, err)
		})
	}
	for i, raw := range []string{"a\x00b.jpg", "tab\there\x7f.jpg", "a\x1bb.jpg"} {
		r := send(`form-data; name="file"; filename="`+raw+`"`, i)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%q: %s", raw, r.Body)
		require.Contains(t, string(r.Body), "malformed")
	}
	for i, c := range []struct{ enc, want string }{
		{"a%00b%01c.jpg", "abc.jpg"},
		{"..%2F..%2Fescape.jpg", "escape.jpg"},
		{"x%E2%80%AEgpj.exe", "xgpj.exe"},
		{"%0D%0ASet-Cookie%3A%20x.jpg", "Set-Cookie: x.jpg"},
		{"%FF%FEbad-utf8.jpg", "bad-utf8.jpg"},
	} {
		r := send(`form-data; name="file"; filename*=UTF-8''`+c.enc, 10+i)
		a := servertest.Expect[api.Asset](t, r, http.StatusCreated)
		require.Equal(t, c.want, a.OriginalFileName)
		d := s.Do("GET", "/api/assets/"+a.ID+"/original", token, nil)
		require.Equal(t, http.StatusOK, d.Status)
		requireSafeDisposition(t, d.Header.Values("Content-Disposition"), a.OriginalFileName)
	}
}
