package towns

import "math"

// List is a decoded town list with its grid. It is read-only, so safe for
// concurrent use.
type List struct {
	countries []Country
	names     string   // every name, one after the other
	nameEnd   []uint32 // name i is names[nameEnd[i-1]:nameEnd[i]]
	towns     []town
	start     []uint32        // towns of cell i: towns[start[i]:start[i+1]]
	cellReach []uint8         // the greatest ReachKm of cell i's towns, rounded up
	byCode    [26 * 26]uint16 // 1 + the index in countries of each code of capitals, 0 for none
}

// town is a Town as the search reads it: 24 bytes.
type town struct {
	lat, lon int32
	reach    float32 // Reach in units of 1/Scale degree of latitude
	pop      uint32
	name     uint32 // index into names
	country  uint16 // index into countries
}

// Len returns the number of towns.
func (l *List) Len() int { return len(l.towns) }

// Countries returns the country codes and names the list carries.
func (l *List) Countries() []Country { return l.countries }

// MaxReachKm bounds every town's reach: beyond 50 km no town is "near" a
// position (over open sea, in a desert, on an ice cap), and the bound
// keeps the search to the grid cells within it.
const MaxReachKm = 50

// kmPerDegree is the length of a degree of latitude (and of longitude at
// the equator) on a sphere of the Earth's mean radius.
const kmPerDegree = 6371.0088 * math.Pi / 180

// ReachKm returns how far from its centre a place of this population still
// names a position: 5 km × (population / 1,000)^¼, at most MaxReachKm. A
// place's built-up area grows with its population, so the distance at
// which it is still the place one was "at" grows too, but slower than the
// square root an even density would give (cities are denser): 5 km for a
// village of 1,000 (GeoNames' smallest, and the data has a few of 0 or
// unknown population, counted as 1,000), 9 km for a town of 10,000, 16 km
// for 100,000, 28 km for a million, 50 km from 6¼ million. Within a city of
// a million, a village of 1,000 names only the positions less than a fifth
// as far from its centre as from the city's (5 km / 28 km): the kilometre
// around it 5 km out of town.
func ReachKm(population uint32) float64 {
	return min(MaxReachKm, 5*math.Pow(max(float64(population), 1000)/1000, 0.25))
}

func reachUnits(population uint32) float32 {
	return float32(ReachKm(population) / kmPerDegree * Scale)
}

// Nearest returns the town whose reach the position (degrees) lies deepest
// in: the least distance / ReachKm(population), where that is at most 1.
// Distances are measured on the local plane (longitude shrunk by the
// cosine of the latitude), close enough to great circles within 50 km.
// When country is not "", only towns of that country count: near a border
// a town across it never names the position. Ties go to the larger town.
// ok is false when no town reaches the position.
func (l *List) Nearest(lat, lon float64, country string) (t Town, ok bool) {
	want := -1
	if country != "" {
		if want = l.countryIndex(country); want < 0 {
			return Town{}, false
		}
	}
	y := int32(math.Round(lat * Scale))
	x := int32(math.Round(lon * Scale))
	maxReach := float64(MaxReachKm / kmPerDegree * Scale)
	r0 := max(0, rowOf(y-int32(maxReach)-1))
	r1 := min(rows-1, rowOf(y+int32(maxReach)+1))
	// The widest the window gets in longitude is at its poleward edge.
	poleward := min(90, math.Abs(lat)+maxReach/Scale+CellDegrees)
	halfWidth := maxReach / math.Cos(poleward*math.Pi/180)
	span := int(cols) // every column near the poles
	c0 := 0
	if halfWidth < 90*Scale {
		c0 = colOf(x - int32(halfWidth) - 1)
		span = colOf(x+int32(halfWidth)+1) - c0 + 1
		if span <= 0 { // the window crosses the antimeridian
			span += int(cols)
		}
		span = min(span, int(cols))
	}
	cos := float32(math.Cos(lat * math.Pi / 180))
	fy, fx := float32(y), float32(x)
	best, bestScore := -1, float32(1)
	const unitsPerKm = float32(Scale / kmPerDegree)
	for r := r0; r <= r1; r++ {
		// How far the position is from the row's band, in latitude.
		south, north := float32(int64(r)*cellUnits-90*Scale), float32(int64(r+1)*cellUnits-90*Scale)
		dyCell := max(0, south-fy, fy-north)
		for k := range span {
			col := (c0 + k) % int(cols)
			c := r*int(cols) + col
			if l.start[c] == l.start[c+1] {
				continue
			}
			// Skip the cell when even its farthest-reaching town could
			// not reach the position deeper than the best so far.
			west := float32(int64(col)*cellUnits - 180*Scale)
			dxCell := max(0, west-fx, fx-(west+cellUnits))
			if dxCell > 180*Scale { // the cell is across the antimeridian
				dxCell = max(0, 360*Scale-dxCell-cellUnits)
			}
			dxCell *= cos
			reach := float32(l.cellReach[c]) * unitsPerKm
			if dxCell*dxCell+dyCell*dyCell > bestScore*reach*reach {
				continue
			}
			for i := l.start[c]; i < l.start[c+1]; i++ {
				tw := &l.towns[i]
				if want >= 0 && int(tw.country) != want {
					continue
				}
				dy := fy - float32(tw.lat)
				dx := fx - float32(tw.lon)
				if dx > 180*Scale {
					dx -= 360 * Scale
				} else if dx < -180*Scale {
					dx += 360 * Scale
				}
				dx *= cos
				d2 := dx*dx + dy*dy
				r2 := tw.reach * tw.reach
				if d2 > bestScore*r2 {
					continue
				}
				score := d2 / r2
				if best < 0 || score < bestScore || (score == bestScore && tw.pop > l.towns[best].pop) {
					best, bestScore = int(i), score
				}
			}
		}
	}
	if best < 0 {
		return Town{}, false
	}
	return l.town(best), true
}

// countryIndex returns the index of a country code in l.countries, -1
// for none: a table of the 26 × 26 codes of two capital letters.
func (l *List) countryIndex(code string) int {
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' {
		return -1
	}
	return int(l.byCode[int(code[0]-'A')*26+int(code[1]-'A')]) - 1
}

func (l *List) town(i int) Town {
	t := &l.towns[i]
	begin := uint32(0)
	if t.name > 0 {
		begin = l.nameEnd[t.name-1]
	}
	return Town{Lat: t.lat, Lon: t.lon, Population: t.pop, Name: l.names[begin:l.nameEnd[t.name]], Country: l.countries[t.country].Code}
}

// All returns every town, in the list's order.
func (l *List) All() []Town {
	out := make([]Town, len(l.towns))
	for i := range l.towns {
		out[i] = l.town(i)
	}
	return out
}

func rowOf(lat int32) int { return int((int64(lat) + 90*Scale) / cellUnits) }
func colOf(lon int32) int {
	c := int((int64(lon) + 180*Scale) / cellUnits)
	return ((c % cols) + cols) % cols
}
