package query

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
// scores. A query with neither criterion is not ranked: use the store's
// Assets.List.
type SearchQuery struct {
	Filter AssetFilter
	// Terms must all match. An asset's score for a term is the best of:
	// its text's bm25 for the term (higher is better;
	// store/sqlite/search_query.go's textRank weighs the fields), PersonNameScore if
	// one of its people's names matches (Names[i]), AlbumNameScore if an
	// album holding it does.
	Terms []SearchTerm
	// Names are the people and albums matching each term, as the store's
	// Search.Names found them (len(Names) == len(Terms)).
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
