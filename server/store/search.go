package store

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
)

// SearchTerm is one word (or place name) of a text query: the spellings
// it is looked up by (the word as typed, the words it begins, or its
// corrections). A spelling matches an indexed word (under the index's
// tokenizer: "sunsets" matches "sunset"); with a trailing "*", any indexed
// word it begins; with spaces, those words in that order ("cape
// canaveral": a phrase). Spellings are lower case, without diacritics.
//
// An asset matching one of the whole spellings of a term that also has
// spellings with "*" scores ExactBonus more for it: the word as typed
// ranks above the words it begins.
type SearchTerm []string

// NameKind says what a NameMatch names.
type NameKind string

// Kinds of names the search matches.
const (
	NamePerson NameKind = "person"
	NameAlbum  NameKind = "album"
)

// NameMatch is a person or album of a library whose name matches a term.
type NameMatch struct {
	Kind NameKind
	ID   string
}

// ImageCriteria are the matches of a search image: assets that look like
// it, and people like its faces. An asset matches when it is one of
// Visual or holds one of People.
type ImageCriteria struct {
	// Visual are look-alike assets with their scores, 0..1.
	Visual []ScoredID
	// People are the people like the image's faces. Face numbers the
	// image's face a person is like; an asset scores, for each face, the
	// best Score of its people like that face, summed over the faces.
	People []PersonLike
}

// ScoredID is an asset id with a score.
type ScoredID struct {
	ID    string
	Score float64
}

// PersonLike is a person like one face of a search image.
type PersonLike struct {
	PersonID string
	Face     int
	Score    float64
}

// SearchQuery is a ranked search: the assets matching Filter and every
// criterion given (Terms, Image), each scored by the sum of its criteria's
// scores. A query with neither criterion is not ranked: use Assets.List.
type SearchQuery struct {
	Filter AssetFilter
	// Terms must all match. An asset's score for a term is the best of:
	// its text's bm25 for the term (higher is better; sqlite/search_text.go
	// weighs the fields), PersonNameScore if one of its people's names
	// matches (Names[i]), AlbumNameScore if an album holding it does.
	Terms []SearchTerm
	// Names are the people and albums matching each term, as Names found
	// them (len(Names) == len(Terms)).
	Names [][]NameMatch
	Image *ImageCriteria
}

// ExactBonus is what an asset gains for matching a term's whole word when
// the term also takes the words it begins (SearchTerm): more than the text
// scores of one term usually differ by, so exact matches come first.
const ExactBonus = 10.0

// Scores of name matches, on the scale of bm25 in the asset text (a word
// in 5% of a large library's documents scores about 3 per unit of field
// weight): a named person or an album is a deliberate, precise label.
const (
	PersonNameScore = 8.0
	AlbumNameScore  = 6.0
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
	Names(ctx context.Context, libraryID string, term SearchTerm) ([]NameMatch, error)
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
	Assets(ctx context.Context, q SearchQuery, p Page) ([]ScoredAsset, bool, error)
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
