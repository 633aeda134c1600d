package tui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// detailLines are the metadata of a, one "Label  value" a line, leaving
// out what is unknown: with info (nil until fetched) its albums and the
// people in it.
func detailLines(a api.Asset, info *assetInfo) [][2]string {
	md := a.Metadata
	var out [][2]string
	add := func(label, value string) {
		if value = strings.TrimSpace(value); value != "" {
			out = append(out, [2]string{label, value})
		}
	}
	add("File", a.OriginalFileName)
	add("Taken", strings.Replace(a.LocalDatetime, "T", " ", 1))
	if a.Width != nil && a.Height != nil {
		add("Size", fmt.Sprintf("%d×%d, %s", *a.Width, *a.Height, bytesText(a.FileSizeBytes)))
	} else {
		add("Size", bytesText(a.FileSizeBytes))
	}
	add("Camera", client.CameraName(str(md.Make), str(md.Model)))
	add("Lens", str(md.LensModel))
	add("Exposure", exposure(md.MetadataValues))
	add("Place", place(md))
	names := make([]string, 0, len(a.People))
	for _, p := range a.People {
		names = append(names, personName(p))
	}
	switch {
	case info == nil:
	case info.loading:
		add("Albums", "(loading…)")
	case info.err != nil:
		add("Albums", "(unknown: "+info.err.Error()+")")
	default:
		add("Albums", strings.Join(info.albums, ", "))
		names = info.people
	}
	add("People", strings.Join(names, ", "))
	if r := rating(a); r > 0 {
		add("Rating", strings.Repeat("★", r)+strings.Repeat("☆", 5-r))
	}
	add("About", str(md.Description))
	add("AI says", str(a.Description))
	if info != nil && !info.loading && info.err == nil {
		add("Text", strings.Join(strings.Fields(strings.ReplaceAll(str(info.text), "\n", " · ")), " "))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Metrics)) {
		if v, ok := a.Metrics[k].(float64); ok { // scores; not the hashes (phash, colors)
			add(k, metricText(v))
		}
	}
	if a.TrashedAt != nil {
		add("Trashed", a.TrashedAt.Format("2006-01-02 15:04"))
	}
	return out
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func join(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// exposure reads "f/2.8 1/250s ISO 100 35mm".
func exposure(v api.MetadataValues) string {
	var parts []string
	if v.FNumber != nil {
		parts = append(parts, "f/"+num(*v.FNumber))
	}
	if t := v.ExposureTime; t != nil && *t > 0 {
		if *t < 1 {
			parts = append(parts, fmt.Sprintf("1/%.0fs", 1 / *t))
		} else {
			parts = append(parts, num(*t)+"s")
		}
	}
	if v.ISO != nil {
		parts = append(parts, "ISO "+num(*v.ISO))
	}
	if v.FocalLength != nil {
		parts = append(parts, num(*v.FocalLength)+"mm")
	}
	return strings.Join(parts, " ")
}

// place is the place name, city, region and country (each once), else
// the coordinates.
func place(md api.AssetMetadata) string {
	var parts []string
	for _, p := range []string{str(md.PlaceName), str(md.City), str(md.State), str(md.Country)} {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, ", ")
	}
	if md.Latitude != nil && md.Longitude != nil {
		return fmt.Sprintf("%.5f, %.5f", *md.Latitude, *md.Longitude)
	}
	return ""
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func metricText(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', 4, 64)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n > 0:
		return fmt.Sprintf("%d B", n)
	}
	return ""
}
