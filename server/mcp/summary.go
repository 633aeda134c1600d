package mcp

import (
	"slices"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// The tool results are concise views of the wire types: what an assistant
// needs to talk about a photo and act on it, never whole records.

// AssetSummary is one asset in a list.
type AssetSummary struct {
	ID          string   `json:"id"`
	FileName    string   `json:"file_name"`
	MediaType   string   `json:"media_type"`
	TakenAt     string   `json:"taken_at,omitempty" jsonschema:"capture time as the device recorded it"`
	Place       string   `json:"place,omitempty"`
	People      []string `json:"people,omitempty" jsonschema:"names of the people shown"`
	Rating      *float64 `json:"rating,omitempty"`
	Description string   `json:"description,omitempty"`
	Trashed     bool     `json:"trashed,omitempty"`
	Score       float64  `json:"score,omitempty" jsonschema:"search rank, higher first"`
}

// PersonRef names a person shown in an asset.
type PersonRef struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// AssetDetail is get_asset's answer.
type AssetDetail struct {
	ID              string      `json:"id"`
	LibraryID       string      `json:"library_id"`
	FileName        string      `json:"file_name"`
	MediaType       string      `json:"media_type"`
	MIMEType        string      `json:"mime_type"`
	TakenAt         string      `json:"taken_at,omitempty"`
	Width           *int        `json:"width,omitempty"`
	Height          *int        `json:"height,omitempty"`
	Camera          string      `json:"camera,omitempty"`
	Latitude        *float64    `json:"latitude,omitempty"`
	Longitude       *float64    `json:"longitude,omitempty"`
	Place           string      `json:"place,omitempty"`
	Rating          *float64    `json:"rating,omitempty"`
	Description     string      `json:"description,omitempty" jsonschema:"the user's description"`
	AIDescription   string      `json:"ai_description,omitempty" jsonschema:"the machine-written description"`
	People          []PersonRef `json:"people,omitempty"`
	Trashed         bool        `json:"trashed,omitempty"`
	FileSizeBytes   int64       `json:"file_size_bytes"`
	HasPreviewImage bool        `json:"has_preview_image" jsonschema:"view_asset can show it"`
	Text            *string     `json:"text,omitempty" jsonschema:"the text read in the picture (OCR), lines joined by newlines; absent until it was read"`
}

// AlbumSummary is one album.
type AlbumSummary struct {
	ID         string `json:"id"`
	LibraryID  string `json:"library_id"`
	Name       string `json:"name"`
	AssetCount int    `json:"asset_count"`
	StartDate  string `json:"start_date,omitempty"`
	EndDate    string `json:"end_date,omitempty"`
}

// PersonSummary is one person.
type PersonSummary struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty" jsonschema:"empty for a person not named yet"`
	AssetCount int    `json:"asset_count"`
	IsFavorite bool   `json:"is_favorite,omitempty"`
}

// LibrarySummary is one library with the caller's role.
type LibrarySummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func place(m api.AssetMetadata) string {
	if l := deref(m.DisplayLabel); l != "" {
		return l
	}
	var parts []string
	for _, p := range []*string{m.PlaceName, m.City, m.State, m.Country} {
		if v := deref(p); v != "" && !slices.Contains(parts, v) {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
}

func summarize(a *api.Asset, score float64) AssetSummary {
	s := AssetSummary{ID: a.ID, FileName: a.OriginalFileName, MediaType: a.MediaType, TakenAt: a.LocalDatetime,
		Place: place(a.Metadata), Rating: a.Metadata.Rating, Description: description(a), Trashed: a.TrashedAt != nil,
		Score: score}
	for _, p := range a.People {
		if n := deref(p.Name); n != "" {
			s.People = append(s.People, n)
		}
	}
	return s
}

// description prefers the user's words to the machine's.
func description(a *api.Asset) string {
	if d := deref(a.Metadata.Description); d != "" {
		return d
	}
	return deref(a.Description)
}

func detail(ad *api.AssetDetail) AssetDetail {
	a, m := &ad.Asset, ad.Metadata
	d := AssetDetail{ID: a.ID, LibraryID: a.LibraryID, FileName: a.OriginalFileName, MediaType: a.MediaType,
		MIMEType: a.MIMEType, TakenAt: a.LocalDatetime, Width: a.Width, Height: a.Height,
		Camera:   strings.TrimSpace(deref(m.Make) + " " + deref(m.Model)),
		Latitude: m.Latitude, Longitude: m.Longitude, Place: place(m), Rating: m.Rating,
		Description: deref(m.Description), AIDescription: deref(a.Description), Trashed: a.TrashedAt != nil,
		FileSizeBytes: a.FileSizeBytes, HasPreviewImage: a.AssetURLs.Preview != nil, Text: ad.OCRText}
	for _, p := range a.People {
		d.People = append(d.People, PersonRef{ID: p.ID, Name: deref(p.Name)})
	}
	return d
}

func albumSummary(a *api.Album) AlbumSummary {
	return AlbumSummary{ID: a.ID, LibraryID: a.LibraryID, Name: a.Name, AssetCount: a.AssetCount,
		StartDate: deref(a.StartDate), EndDate: deref(a.EndDate)}
}

func personSummary(p *api.Person) PersonSummary {
	return PersonSummary{ID: p.ID, Name: deref(p.Name), AssetCount: p.AssetCount, IsFavorite: p.IsFavorite}
}
