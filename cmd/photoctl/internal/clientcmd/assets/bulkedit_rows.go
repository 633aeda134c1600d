package assets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// editRow is one edit read from a bulk-edit file: the asset, its change,
// and where it came from (line for CSV and JSONL, item number for JSON).
type editRow struct {
	line   int
	id     string
	change api.AssetChange
	// err is a problem with the row itself; its batch is not sent.
	err error
}

// bulkColumns are the columns and fields a bulk-edit file may have.
var bulkColumns = []string{"id", "rating", "description", "latitude", "longitude", "original_datetime"}

// editFormat picks csv, json or jsonl from --format or the file extension.
func editFormat(format, path string) (string, error) {
	if format == "" {
		format = strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
		if format == "ndjson" {
			format = "jsonl"
		}
	}
	switch format {
	case "csv", "json", "jsonl":
		return format, nil
	case "":
		return "", errors.New("cannot tell the format: use --format csv, json or jsonl")
	default:
		return "", fmt.Errorf("unknown format %q: want csv, json or jsonl", format)
	}
}

// readEditRows reads every row of r in format. A malformed file is an
// error; a malformed row is kept with its err.
func readEditRows(r io.Reader, format string) ([]editRow, error) {
	switch format {
	case "csv":
		return readCSVRows(r)
	case "json":
		var items []json.RawMessage
		dec := json.NewDecoder(r)
		if err := dec.Decode(&items); err != nil {
			return nil, fmt.Errorf("read JSON: want an array of objects: %w", err)
		}
		rows := make([]editRow, len(items))
		for i, raw := range items {
			rows[i] = jsonRow(i+1, raw)
		}
		return rows, nil
	default: // jsonl
		var rows []editRow
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for line := 1; sc.Scan(); line++ {
			if b := bytes.TrimSpace(sc.Bytes()); len(b) > 0 {
				rows = append(rows, jsonRow(line, b))
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("read JSONL: %w", err)
		}
		return rows, nil
	}
}

// readCSVRows reads a CSV with a header row naming bulkColumns. An empty
// cell leaves the field alone; the word null clears it.
func readCSVRows(r io.Reader) ([]editRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read CSV header: %w", err)
	}
	cols := make([]string, len(header))
	hasID := false
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !slices.Contains(bulkColumns, h) {
			return nil, fmt.Errorf("CSV column %q: want some of %s", h, strings.Join(bulkColumns, ", "))
		}
		cols[i], hasID = h, hasID || h == "id"
	}
	if !hasID {
		return nil, errors.New("CSV has no id column")
	}
	var rows []editRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
				rows = append(rows, editRow{line: line, err: err})
				continue
			}
			return nil, fmt.Errorf("read CSV: %w", err)
		}
		if len(rec) != len(cols) {
			rows = append(rows, editRow{line: line, err: fmt.Errorf("%d cells for %d columns", len(rec), len(cols))})
			continue
		}
		row := editRow{line: line}
		for i, v := range rec {
			if err := setCell(&row, cols[i], strings.TrimSpace(v)); err != nil && row.err == nil {
				row.err = err
			}
		}
		if row.err == nil && !changes(row.change) {
			row.err = errors.New("changes nothing")
		}
		rows = append(rows, row)
	}
}

func setCell(row *editRow, col, v string) error {
	if col == "id" {
		row.id = v
		if v == "" {
			return errors.New("id is empty")
		}
		return nil
	}
	if v == "" {
		return nil // unchanged
	}
	null := v == "null"
	ch := &row.change
	switch col {
	case "rating":
		ch.Rating.Set = true
		if !null {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("rating %q is not a whole number", v)
			}
			ch.Rating.Value = &n
		}
	case "description":
		ch.Description.Set = true
		if !null {
			ch.Description.Value = &v
		}
	case "latitude", "longitude":
		o := &ch.Latitude
		if col == "longitude" {
			o = &ch.Longitude
		}
		o.Set = true
		if !null {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("%s %q is not a number", col, v)
			}
			o.Value = &f
		}
	case "original_datetime":
		ch.OriginalDatetime.Set = true
		if !null {
			ch.OriginalDatetime.Value = &v
		}
	}
	return nil
}

// jsonRow decodes one object: an absent field stays, null clears.
func jsonRow(line int, raw []byte) editRow {
	row := editRow{line: line}
	var obj struct {
		ID string `json:"id"`
		api.AssetChange
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		row.err = fmt.Errorf("want an object with %s: %w", strings.Join(bulkColumns, ", "), err)
		return row
	}
	row.id, row.change = obj.ID, obj.AssetChange
	switch {
	case row.id == "":
		row.err = errors.New("id is missing")
	case !changes(row.change):
		row.err = errors.New("changes nothing")
	}
	return row
}
