package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // search images may be GIF
	_ "image/jpeg" // or JPEG
	_ "image/png"  // or PNG
	"math"
	"strconv"

	_ "golang.org/x/image/webp" // or WebP

	"github.com/photoctl/photoctl/ingest/metrics"
	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Image search compares the image with the library two ways.
//
// Looks: the pHash (ingest/metrics) of every measured asset is indexed in
// four 16-bit bands (migration 0013), and so are the pHashes of seven of
// its crops (the centre at 90, 85 and 80% of each side, the four corners
// at 80%: asset_phashes, migration 0019), since a crop of 90% or less is
// often as far from the picture's hash as an unrelated picture
// (ingest/metrics crops.go has the figures). The search image is hashed as it is and
// mirrored (left to right), so that it finds an asset, a crop of it, or
// either's mirror image. Candidates are hashes sharing a band with one of
// the image's two, or differing from it in one bit of a band: that finds
// every hash within 7 bits (of 64), and some up to maxHamming. An asset's
// distance d is the least between the image's hashes and its candidates;
// within maxHamming it scores 0.8·(1 − d/16) + 0.2·colour similarity (the
// histogram intersection of the colour signatures, which ignores the
// layout, so mirror images and crops keep it), or 1 − d/16 when either
// has no colour signature: 1 for the same picture (or a crop the index
// holds), about 0.85 for a scaled or recompressed copy.
//
// People: each face the image shows (when a face analyzer runs) is
// compared with a vector per person of the library (the clustering's
// centroid, else the featured face); a person at cosine similarity
// SamePerson or more is like that face, and each asset holding them scores
// similarity / number of faces, best person per face, summed over faces.
//
// An asset matches the image by looks or by people; its image score is the
// sum of both, 0..2.
const (
	maxHamming    = 12
	maxCandidates = 5000
	maxPeople     = 20000
	// maxPeoplePerFace bounds the people one face may be like (clusters of
	// one person the clustering has not merged yet).
	maxPeoplePerFace = 3
)

// imageCriteria decodes a search image and finds what looks like it and
// who is in it.
func (s *Service) imageCriteria(ctx context.Context, libraryID string, data []byte, loc string) (*query.ImageCriteria, error) {
	img, err := decodeImage(data, s.cfg.MaxImagePixels, loc)
	if err != nil {
		return nil, err
	}
	crit := &query.ImageCriteria{}
	m := metrics.Compute(img)
	colors := metrics.ColorSignature(img)
	r := s.store.Read().Search()
	if m.PHash != "" {
		hashes := []string{m.PHash, m.MirrorPHash}
		var bands [4][]string
		for _, h := range hashes {
			b, err := phashBands(h)
			if err != nil {
				return nil, err
			}
			for i := range bands {
				bands[i] = append(bands[i], b[i]...)
			}
		}
		cands, err := r.PHashCandidates(ctx, libraryID, bands, maxCandidates)
		if err != nil {
			return nil, err
		}
		crit.Visual = visualMatches(hashes, colors, cands)
	}
	if s.faces == nil {
		return crit, nil
	}
	faces, err := s.faces.DetectFaces(ctx, img)
	if errors.Is(err, ml.ErrUnavailable) || len(faces) == 0 {
		return crit, nil // no face model here: looks alone
	}
	if err != nil {
		return nil, fmt.Errorf("find the faces of the search image: %w", err)
	}
	vectors, err := r.PersonVectors(ctx, libraryID, maxPeople)
	if err != nil {
		return nil, err
	}
	people := make([]personVector, 0, len(vectors))
	for _, v := range vectors {
		if e, ok := unitVector(v.Embedding); ok {
			people = append(people, personVector{v.PersonID, e})
		}
	}
	for i, f := range faces {
		crit.People = append(crit.People, likePeople(f.Embedding, people, s.cfg.SamePerson, i, len(faces))...)
	}
	return crit, nil
}

// visualMatches scores the candidates' assets, each by its hash nearest
// to one of the image's (see the constants' comment), best score first
// from each asset's candidates, in the order the assets first came.
func visualMatches(hashes []string, colors string, cands []store.PHashCandidate) []query.ScoredID {
	var out []query.ScoredID
	at := map[string]int{}
	for _, c := range cands {
		d := 64
		for _, h := range hashes {
			d = min(d, metrics.HammingDistance(h, c.PHash))
		}
		score, ok := visualScore(d, colors, c.Colors)
		if !ok {
			continue
		}
		if i, seen := at[c.ID]; seen {
			out[i].Score = max(out[i].Score, score)
			continue
		}
		at[c.ID] = len(out)
		out = append(out, query.ScoredID{ID: c.ID, Score: score})
	}
	return out
}

// visualScore scores a hash at distance d with its asset's colour
// signature (see the constants' comment).
func visualScore(d int, colors, candColors string) (float64, bool) {
	if d > maxHamming {
		return 0, false
	}
	shape := 1 - float64(d)/16
	if colors == "" || candColors == "" {
		return shape, true
	}
	return 0.8*shape + 0.2*metrics.ColorSimilarity(colors, candColors), true
}

// phashBands returns, for each 16-bit band of a pHash, its value and the
// values one bit away, as the four hex digits the index holds.
func phashBands(hash string) ([4][]string, error) {
	var out [4][]string
	if len(hash) != 16 {
		return out, fmt.Errorf("phash %q: want 16 hex digits", hash)
	}
	for i := range out {
		v, err := strconv.ParseUint(hash[4*i:4*i+4], 16, 16)
		if err != nil {
			return out, fmt.Errorf("phash %q: %w", hash, err)
		}
		out[i] = append(out[i], fmt.Sprintf("%04x", v))
		for bit := range 16 {
			out[i] = append(out[i], fmt.Sprintf("%04x", v^(1<<bit)))
		}
	}
	return out, nil
}

type personVector struct {
	id string
	v  []float32
}

// likePeople returns the people like a face (at most maxPeoplePerFace,
// most similar first), each scoring similarity / faces.
func likePeople(face ml.Embedding, people []personVector, threshold float64, faceNo, faces int) []query.PersonLike {
	if len(face) == 0 {
		return nil
	}
	var out []query.PersonLike
	for _, p := range people {
		if len(p.v) != len(face) {
			continue
		}
		var dot float64
		for i := range face {
			dot += float64(face[i]) * float64(p.v[i])
		}
		if dot >= threshold {
			out = append(out, query.PersonLike{PersonID: p.id, Face: faceNo, Score: dot / float64(faces)})
		}
	}
	// Best first, then cut.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out[:min(len(out), maxPeoplePerFace)]
}

// unitVector decodes a little-endian float32 vector and scales it to unit
// length.
func unitVector(b []byte) ([]float32, bool) {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil, false
	}
	v := make([]float32, len(b)/4)
	var norm float64
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		norm += float64(v[i]) * float64(v[i])
	}
	if norm == 0 || math.IsNaN(norm) {
		return nil, false
	}
	scale := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= scale
	}
	return v, true
}

// decodeImage decodes a search image, upright (a JPEG's EXIF orientation
// applied), refusing more than maxPixels before decoding them.
func decodeImage(data []byte, maxPixels int64, loc string) (image.Image, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, catalog.InvalidField("value_error", "image must be a JPEG, PNG, GIF or WebP picture", nil, loc, "image")
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, catalog.InvalidField("value_error",
			fmt.Sprintf("image is %dx%d pixels; at most %d pixels are searched", cfg.Width, cfg.Height, maxPixels), nil, loc, "image")
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, catalog.InvalidField("value_error", "image could not be decoded: "+err.Error(), nil, loc, "image")
	}
	if format == "jpeg" {
		img = orient(img, jpegOrientation(data))
	}
	return img, nil
}
