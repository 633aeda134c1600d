// Package towns finds the town that names a position: among the populated
// places of a list (GeoNames' places of 1,000 people or more), the one whose
// reach the position lies deepest in (Reach). The list is one compact byte
// slice, built once (Encode) and read into a grid of half-degree cells (Decode).
//
// The encoding, all integers varints:
//
//	"PCTOWNS1"
//	countries: n, then n × (code: 2 bytes, name: length + UTF-8)
//	names:     n, then n × (length + UTF-8), sorted
//	towns:     n, then n × (Δlat, Δlon zig-zag, population, name index, country index)
//
// Towns come sorted by grid cell and within it by position, so the deltas
// are small; positions are in units of 10⁻⁵° (1.1 m), as GeoNames gives them.
package towns

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

const magic = "PCTOWNS1"

// Scale is the number of position units per degree.
const Scale = 100_000

// Town is one populated place.
type Town struct {
	Lat, Lon   int32 // in units of 1/Scale degree
	Population uint32
	Name       string
	// Country is the code of the country the place lies in: for the
	// geocoder, the one its admin areas give at the town's position.
	Country string
}

// Country names a country code.
type Country struct {
	Code, Name string
}

// CellDegrees is the size of the grid's cells: small enough that the 50
// km around a position cover few cells beyond it, large enough that the
// grid's index (4 bytes a cell) stays about a megabyte.
const CellDegrees = 0.5

const (
	cellUnits = CellDegrees * Scale
	cols      = int(360 / CellDegrees)
	rows      = int(180 / CellDegrees)
)

// cellOf returns the index of the grid cell of a position in units.
func cellOf(lat, lon int32) int {
	r := min(rows-1, max(0, rowOf(lat)))
	return r*cols + colOf(lon)
}

// Encode writes the towns and the country names. It sorts towns (by cell,
// then position, then name), so the same towns in any order give the same
// bytes. Every town's country must be among countries.
func Encode(towns []Town, countries []Country) ([]byte, error) {
	towns = slices.Clone(towns)
	for i := range towns {
		if towns[i].Lon == 180*Scale { // the same meridian as -180°, where the grid has it
			towns[i].Lon = -180 * Scale
		}
	}
	slices.SortFunc(towns, func(a, b Town) int {
		return cmp.Or(cmp.Compare(cellOf(a.Lat, a.Lon), cellOf(b.Lat, b.Lon)), cmp.Compare(a.Lat, b.Lat),
			cmp.Compare(a.Lon, b.Lon), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Population, b.Population),
			cmp.Compare(a.Country, b.Country))
	})
	countries = slices.Clone(countries)
	slices.SortFunc(countries, func(a, b Country) int { return cmp.Compare(a.Code, b.Code) })
	countryIndex := map[string]int{}
	out := []byte(magic)
	out = binary.AppendUvarint(out, uint64(len(countries)))
	for i, c := range countries {
		if len(c.Code) != 2 {
			return nil, fmt.Errorf("encode towns: country code %q", c.Code)
		}
		countryIndex[c.Code] = i
		out = append(out, c.Code...)
		out = appendString(out, c.Name)
	}
	var names []string
	for _, t := range towns {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	nameIndex := make(map[string]int, len(names))
	out = binary.AppendUvarint(out, uint64(len(names)))
	for i, n := range names {
		nameIndex[n] = i
		out = appendString(out, n)
	}
	out = binary.AppendUvarint(out, uint64(len(towns)))
	var lat, lon int32
	for _, t := range towns {
		ci, ok := countryIndex[t.Country]
		if !ok {
			return nil, fmt.Errorf("encode towns: %s has country %q, which has no name", t.Name, t.Country)
		}
		if abs(t.Lat) > 90*Scale || abs(t.Lon) > 180*Scale {
			return nil, fmt.Errorf("encode towns: %s lies at %d,%d", t.Name, t.Lat, t.Lon)
		}
		out = binary.AppendVarint(out, int64(t.Lat-lat))
		out = binary.AppendVarint(out, int64(t.Lon-lon))
		lat, lon = t.Lat, t.Lon
		out = binary.AppendUvarint(out, uint64(t.Population))
		out = binary.AppendUvarint(out, uint64(nameIndex[t.Name]))
		out = binary.AppendUvarint(out, uint64(ci))
	}
	return out, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// errCorrupt is what Decode says of bytes it cannot read.
var errCorrupt = errors.New("not a town list or damaged")

// Decode reads what Encode wrote into a List.
func Decode(data []byte) (*List, error) {
	d := decoder{b: data}
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("decode towns: %w", errCorrupt)
	}
	d.b = d.b[len(magic):]
	l := &List{}
	nc := d.count(3)
	for range nc {
		if len(d.b) < 2 {
			return nil, fmt.Errorf("decode towns: %w", errCorrupt)
		}
		code := string(d.b[:2])
		d.b = d.b[2:]
		if code[0] >= 'A' && code[0] <= 'Z' && code[1] >= 'A' && code[1] <= 'Z' {
			l.byCode[int(code[0]-'A')*26+int(code[1]-'A')] = uint16(len(l.countries) + 1)
		}
		l.countries = append(l.countries, Country{Code: code, Name: d.string()})
	}
	// The names go into one string, each found by its offset: 4 bytes a
	// name rather than a 16-byte string header.
	nn := d.count(1)
	var blob []byte
	l.nameEnd = make([]uint32, 0, nn)
	for range nn {
		blob = append(blob, d.string()...)
		l.nameEnd = append(l.nameEnd, uint32(len(blob)))
	}
	l.names = string(blob)
	nt := d.count(5)
	l.towns = make([]town, 0, nt)
	var lat, lon int64
	for range nt {
		lat += d.varint()
		lon += d.varint()
		pop, name, country := d.uvarint(), d.uvarint(), d.uvarint()
		if d.err || name >= uint64(nn) || country >= uint64(len(l.countries)) ||
			math.Abs(float64(lat)) > 90*Scale || math.Abs(float64(lon)) > 180*Scale || pop > math.MaxUint32 {
			return nil, fmt.Errorf("decode towns: %w", errCorrupt)
		}
		t := town{lat: int32(lat), lon: int32(lon), pop: uint32(pop), name: uint32(name), country: uint16(country)}
		t.reach = reachUnits(t.pop)
		l.towns = append(l.towns, t)
	}
	if d.err || len(d.b) != 0 {
		return nil, fmt.Errorf("decode towns: %w", errCorrupt)
	}
	// cell i holds towns[start[i]:start[i+1]]; Encode sorted them by cell.
	l.start = make([]uint32, rows*cols+1)
	prev := 0
	for i, t := range l.towns {
		c := cellOf(t.lat, t.lon)
		if c < prev {
			return nil, fmt.Errorf("decode towns: %w (not sorted by cell)", errCorrupt)
		}
		for ; prev < c; prev++ {
			l.start[prev+1] = uint32(i)
		}
	}
	for ; prev < rows*cols; prev++ {
		l.start[prev+1] = uint32(len(l.towns))
	}
	// The greatest reach in each cell, whole kilometres rounded up, lets
	// a search skip the cells no town of which can reach the position.
	l.cellReach = make([]uint8, rows*cols)
	for _, t := range l.towns {
		c := cellOf(t.lat, t.lon)
		l.cellReach[c] = max(l.cellReach[c], uint8(math.Ceil(ReachKm(t.pop))))
	}
	return l, nil
}

// decoder reads varints and strings, remembering the first failure.
type decoder struct {
	b   []byte
	err bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// count reads a count of items at least minBytes long each, and bounds it
// by what is left, so damaged data cannot ask for a huge allocation.
func (d *decoder) count(minBytes int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/minBytes) {
		d.err, d.b = true, nil
		return 0
	}
	return int(n)
}
