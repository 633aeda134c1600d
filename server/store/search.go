package store

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// ScoredAsset is a search result.
type ScoredAsset struct {
	catalog.Asset
	Score float64
}

// PHashCandidate is an asset with a perceptual hash that shares a band
// with a searched one: the hash (16 hex digits), what it hashes (Kind: ""
// for the whole picture, else one of its crops, as PutPHashes stored it)
// and the asset's colour signature ("" when not measured), for the caller
// to score. An asset is a candidate once per hash of its that matches.
type PHashCandidate struct {
	ID     string
	Kind   string
	PHash  string
	Colors string
}

// KindPHash is the perceptual hash (16 hex digits) of a part of an asset's
// picture, Kind naming the part (ingest/metrics CropHash).
type KindPHash struct {
	Kind  string
	PHash string
}

// AssetRef names an asset and its library.
type AssetRef struct {
	ID        string
	LibraryID string
}

// PersonVector is a face embedding standing for a person: little-endian
// float32s, as the faces step stores them.
type PersonVector struct {
	PersonID  string
	Embedding []byte
}

// Search finds assets by content. Like Assets, it is scoped by the ids it
// is given; callers check library access first.
type Search interface {
	// Names returns the people and albums of the library with a name
	// holding a word that starts with one of term's spellings. Unnamed
	// people have no name to match.
	Names(ctx context.Context, libraryID string, term query.SearchTerm) ([]query.NameMatch, error)
	// HasWord reports whether the word (under the index's tokenizer), or
	// with prefix a word it begins, is in any asset's text or any name, in
	// any library (the vocabulary is shared). A whole word is the cheaper
	// question: ask it first.
	HasWord(ctx context.Context, word string, prefix bool) (bool, error)
	// HasLonger reports whether an indexed word longer than word (of an
	// asset's text or a name, in any library) begins with it as given:
	// the question a prefix query cannot answer where the index stems
	// prefixes. A store that cannot tell answers true.
	HasLonger(ctx context.Context, word string) (bool, error)
	// HasPlace reports whether words, in this order, are a place name of
	// an asset: a phrase of the place fields (city, state, country,
	// sublocation, place name, label) of any asset, in any library.
	HasPlace(ctx context.Context, words []string) (bool, error)
	// Assets pages the assets matching q by score, highest first, then id,
	// highest first. The cursor is the id of the last asset of the previous
	// page; its score is computed again, so pages are exact while the
	// library's text does not change between them (bm25 depends on the
	// whole index). A cursor that does not match q is a validation error.
	Assets(ctx context.Context, q query.SearchQuery, p query.Page) ([]ScoredAsset, bool, error)
	// PHashCandidates returns up to limit hashes of the library's assets
	// (any state), of the whole picture (metrics' phash) or of a crop
	// (PutPHashes), whose band i (hex digits 4i+1..4i+4) is one of
	// bands[i], for some i.
	PHashCandidates(ctx context.Context, libraryID string, bands [4][]string, limit int) ([]PHashCandidate, error)
	// PutPHashes replaces the hashes of the asset's crops (kinds unique,
	// each hash 16 hex digits; none removes them). An unknown asset is
	// ErrNotFound.
	PutPHashes(ctx context.Context, assetID string, hashes []KindPHash) error
	// UnhashedCrops returns up to limit assets of any library, by id after
	// afterID ("": from the first), that are measured (their metrics hold
	// a phash) but have no crop hashes: measured before crops were hashed.
	UnhashedCrops(ctx context.Context, afterID string, limit int) ([]AssetRef, error)
	// PersonVectors returns one embedding standing for each of the
	// library's people with faces (the direction of the clustering's
	// centroid, else the featured face's), for at most limit people, those
	// with most faces first. Vectors need not have unit length.
	PersonVectors(ctx context.Context, libraryID string, limit int) ([]PersonVector, error)
}
