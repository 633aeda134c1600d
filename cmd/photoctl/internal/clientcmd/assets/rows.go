package assets

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// assetRow is an asset in the ls and search tables.
func assetRow(a *api.Asset) []string {
	rating := "-"
	if a.Metadata.Rating != nil {
		rating = strconv.Itoa(int(*a.Metadata.Rating))
	}
	name := a.OriginalFileName
	if a.TrashedAt != nil {
		name += " (trashed)"
	}
	return []string{a.ID, takenAt(a), cmdutil.OrDash(a.MediaType), cmdutil.HumanBytes(a.FileSizeBytes), rating, placeCell(a), name}
}

// placeCell is the PLACE column of the ls and search tables: the most
// specific place name the geocoder found (the nearest town, else the
// state or country), "-" for none.
func placeCell(a *api.Asset) string {
	return cmdutil.OrDash(cmdutil.Deref(a.Metadata.PlaceName))
}

// takenAt shortens local_datetime to minutes: 2024-05-01 12:30.
func takenAt(a *api.Asset) string {
	t := strings.Replace(a.LocalDatetime, "T", " ", 1)
	if len(t) >= 16 {
		return t[:16]
	}
	return cmdutil.OrDash(t)
}

// lsRow is an asset in the ls table: its assetRow with the STACK column
// before PLACE and NAME.
func lsRow(a *api.Asset) []string {
	row := assetRow(a)
	place := len(row) - 2 // PLACE, then NAME
	return append(row[:place:place], stackCell(a), row[place], row[place+1])
}

// stackCell is the STACK column of the ls table: "+N" on a stack's cover,
// N being its other members; "in stack" on another member; "-" outside
// stacks.
func stackCell(a *api.Asset) string {
	switch {
	case a.Stack == nil:
		return "-"
	case a.Stack.CoverAssetID == a.ID:
		return "+" + strconv.Itoa(max(a.Stack.AssetCount-1, 0))
	default:
		return "in stack"
	}
}

// detailFields are the label/value lines of `photoctl get`: assetFields,
// and the text OCR read (its lines joined by " / ") after the description.
func detailFields(d *api.AssetDetail) [][]string {
	rows := assetFields(&d.Asset)
	text := strings.Join(strings.Fields(strings.ReplaceAll(cmdutil.Deref(d.OCRText), "\n", " / ")), " ")
	if text == "" {
		return rows
	}
	at := slices.IndexFunc(rows, func(r []string) bool { return r[0] == "library" })
	return slices.Insert(rows, at, []string{"text", text})
}

// assetFields are the label/value lines of an asset (`photoctl get`,
// `photoctl edit`).
func assetFields(a *api.Asset) [][]string {
	m := a.Metadata
	rows := [][]string{
		{"id", a.ID}, {"name", a.OriginalFileName}, {"type", a.MediaType + " (" + a.MIMEType + ")"},
		{"taken", cmdutil.OrDash(a.LocalDatetime)}, {"size", cmdutil.HumanBytes(a.FileSizeBytes)},
	}
	if a.Width != nil && a.Height != nil {
		rows = append(rows, []string{"dimensions", fmt.Sprintf("%d×%d", *a.Width, *a.Height)})
	}
	if m.Make != nil || m.Model != nil {
		rows = append(rows, []string{"camera", client.CameraName(cmdutil.Deref(m.Make), cmdutil.Deref(m.Model))})
	}
	if m.Latitude != nil && m.Longitude != nil {
		place := fmt.Sprintf("%.6f, %.6f", *m.Latitude, *m.Longitude)
		if label := cmp.Or(cmdutil.Deref(m.DisplayLabel), cmdutil.Deref(m.PlaceName)); label != "" {
			place += " (" + label + ")"
		}
		rows = append(rows, []string{"location", place})
	}
	if m.Rating != nil {
		rows = append(rows, []string{"rating", strconv.Itoa(int(*m.Rating))})
	}
	if m.Description != nil {
		rows = append(rows, []string{"description", *m.Description})
	}
	rows = append(rows, []string{"library", a.LibraryID}, []string{"checksum", a.Checksum})
	if a.TrashedAt != nil {
		rows = append(rows, []string{"trashed", a.TrashedAt.Local().Format("2006-01-02 15:04")})
	}
	return rows
}
