package immich

import (
	"fmt"
	"strconv"
	"time"
)

// Page tokens. immich-go reads nextPage into an integer (a JSON string
// holding digits; a JSON number aborts it) and sends it back as the number
// page, so the keyset cursor must be a number: page 1 starts a search, and
// page N ≥ 2 continues after the asset whose row number
// (store.Assets.Seq) is N-1.

// FirstPage is the page that starts a search.
const FirstPage = 1

// pageToken is the nextPage that continues after the asset numbered seq.
func pageToken(seq int64) string { return strconv.FormatInt(seq+1, 10) }

// cursorSeq returns the row number of the asset a page continues after, or
// 0 for the first page.
func cursorSeq(page int64) (int64, error) {
	switch {
	case page == 0 || page == FirstPage:
		return 0, nil
	case page < 0:
		return 0, fmt.Errorf("page %d: want 1 or a nextPage of an earlier answer", page)
	}
	return page - 1, nil
}

// timeLayout is how Immich writes instants and how immich-go reads them:
// UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Time formats t as Immich does ("2024-05-01T10:00:00.000Z").
func Time(t time.Time) string { return t.UTC().Format(timeLayout) }

// OptionalTime is Time, or nil for a zero or nil time.
func OptionalTime(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := Time(*t)
	return &s
}

// PageNumber is a page as clients send it: a JSON number (immich-go, the
// SDK) or a string of digits (a nextPage passed back as it came).
type PageNumber int64

// UnmarshalJSON reads a number or a string of digits.
func (n *PageNumber) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("page must be an integer, got %s", b)
	}
	*n = PageNumber(v)
	return nil
}
