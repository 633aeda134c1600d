package servertest

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/photoctl/photoctl/server/api"
)

// Upload sends data as a multipart upload named name, with extra form
// fields, and returns the response.
func (s *Server) Upload(token, name string, data []byte, fields map[string]string) *Response {
	s.T.Helper()
	return s.Multipart("POST", "/api/assets", token, func(mw *multipart.Writer) {
		for k, v := range fields {
			require.NoError(s.T, mw.WriteField(k, v))
		}
		s.writeFile(mw, "file", name, data)
	})
}

// SearchByImage sends POST /api/search as a form: fields, and img as its
// image part (none when nil).
func (s *Server) SearchByImage(token string, img []byte, fields map[string]string) *Response {
	s.T.Helper()
	return s.Multipart("POST", "/api/search", token, func(mw *multipart.Writer) {
		for k, v := range fields {
			require.NoError(s.T, mw.WriteField(k, v))
		}
		if img != nil {
			s.writeFile(mw, "image", "query.jpg", img)
		}
	})
}

// Multipart sends a multipart/form-data request whose parts write adds
// (the harness closes the writer), with token as a bearer.
func (s *Server) Multipart(method, path, token string, write func(*multipart.Writer)) *Response {
	s.T.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	write(mw)
	require.NoError(s.T, mw.Close())
	req, err := http.NewRequest(method, s.URL+path, &body)
	require.NoError(s.T, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return s.RoundTrip(req)
}

// writeFile adds a file part.
func (s *Server) writeFile(mw *multipart.Writer, field, name string, data []byte) {
	s.T.Helper()
	fw, err := mw.CreateFormFile(field, name)
	require.NoError(s.T, err)
	_, err = fw.Write(data)
	require.NoError(s.T, err)
}

// UploadAsset uploads data and requires a new asset (201).
func (s *Server) UploadAsset(token, name string, data []byte, fields map[string]string) api.Asset {
	s.T.Helper()
	r := s.Upload(token, name, data, fields)
	require.Equal(s.T, http.StatusCreated, r.Status, "upload %s: %s", name, r.Body)
	var a api.Asset
	r.JSON(s.T, &a)
	return a
}

// JPEG returns a real w×h JPEG whose pixels depend on seed, so different
// seeds give different content (and checksums).
func JPEG(t testing.TB, w, h int, seed int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x*7 + seed), uint8(y*3 + seed*5), uint8(seed * 11), 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	return buf.Bytes()
}

// TextPNG returns a PNG with lines of large dark text on a light
// background, as a sign in a photo, for OCR.
func TextPNG(t testing.TB, lines ...string) []byte {
	t.Helper()
	const w, h = 960, 400
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := uint8(225 + 20*x/w)
			img.SetRGBA(x, y, color.RGBA{v, v - 5, v - 15, 255})
		}
	}
	f, err := opentype.Parse(gobold.TTF)
	require.NoError(t, err)
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 56, DPI: 72, Hinting: font.HintingFull})
	require.NoError(t, err)
	for i, l := range lines {
		d := &font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{25, 30, 70, 255}), Face: face,
			Dot: fixed.P(60, 120+110*i)}
		d.DrawString(l)
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// SearchIDs returns the ids GET /api/search?query= finds (its first
// page), best first.
func (s *Server) SearchIDs(token, query string) []string {
	s.T.Helper()
	r := s.Do("GET", "/api/search?"+url.Values{"query": {query}}.Encode(), token, nil)
	require.Equal(s.T, http.StatusOK, r.Status, "%s", r.Body)
	var hits api.Page[api.SearchHit]
	r.JSON(s.T, &hits)
	ids := []string{}
	for _, h := range hits.Data {
		ids = append(ids, h.ID)
	}
	return ids
}
