package sqlstore

import (
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// SplitTerms splits q's terms into those that match no name and the
// indexes of those that do.
func SplitTerms(q query.SearchQuery) (plain []query.SearchTerm, named []int) {
	for i, t := range q.Terms {
		if i < len(q.Names) && len(q.Names[i]) > 0 {
			named = append(named, i)
		} else {
			plain = append(plain, t)
		}
	}
	return plain, named
}

// NameLinks calls fn for the people among names, then the albums, when
// there are any: the table linking them to their assets (links), its
// column of their ids (with), their ids, and the score an asset of
// theirs has for the term.
func NameLinks(names []query.NameMatch, fn func(links, with string, ids []string, score float64)) {
	var people, albums []string
	for _, m := range names {
		if m.Kind == query.NamePerson {
			people = append(people, m.ID)
		} else {
			albums = append(albums, m.ID)
		}
	}
	if len(people) > 0 {
		fn("person_assets", "person_id", people, query.PersonNameScore)
	}
	if len(albums) > 0 {
		fn("album_assets", "album_id", albums, query.AlbumNameScore)
	}
}

// maxTimeTokens bounds the capture-time tokens of a window: a longer list
// would cost more to merge than it saves.
const maxTimeTokens = 64

// TimeTokens returns the capture-time tokens the full-text index holds
// (y2024, m202406, d20240601) that cover r's window — whole years, whole
// months, then days — widened by a day on each side (an offset-aware
// bound compares instants, up to 14 hours from the wall clock the tokens
// hold), or nil when the window is open on a side or needs more than
// maxTimeTokens. The filter's own conditions still decide exactly; the
// tokens let the index leave out most matches outside the window.
func TimeTokens(r catalog.CaptureRange) []string {
	if r.After == nil || r.Before == nil {
		return nil
	}
	day := func(us int64) time.Time {
		t := time.UnixMicro(us).UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	lo, hi := day(r.After.Micros()).AddDate(0, 0, -1), day(r.Before.Micros()).AddDate(0, 0, 1)
	var tokens []string
	for d := lo; !d.After(hi); {
		switch {
		case d.YearDay() == 1 && !d.AddDate(1, 0, -1).After(hi):
			tokens, d = append(tokens, "y"+d.Format("2006")), d.AddDate(1, 0, 0)
		case d.Day() == 1 && !d.AddDate(0, 1, -1).After(hi):
			tokens, d = append(tokens, "m"+d.Format("200601")), d.AddDate(0, 1, 0)
		default:
			tokens, d = append(tokens, "d"+d.Format("20060102")), d.AddDate(0, 0, 1)
		}
		if len(tokens) > maxTimeTokens {
			return nil
		}
	}
	return tokens
}

// ExactSpellings returns the whole spellings of a term that also has
// spellings with "*" (the words it begins), which rank below them
// (query.ExactBonus); nil when the term has only one kind.
func ExactSpellings(t query.SearchTerm) query.SearchTerm {
	var exact query.SearchTerm
	prefixes := 0
	for _, s := range t {
		if strings.HasSuffix(s, "*") {
			prefixes++
		} else {
			exact = append(exact, s)
		}
	}
	if prefixes == 0 || len(exact) == 0 {
		return nil
	}
	return exact
}
