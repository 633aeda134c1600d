package devseed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// Shares of the generated library. They describe a typical phone-and-camera
// collection closely enough for list and filter benchmarks.
const (
	years        = 10   // capture times span this many years before Now
	homeShare    = 0.35 // trips spent in the home city
	phoneShare   = 0.75 // trips shot on a phone: offset known, usually GPS
	phoneGPS     = 0.90 // phone photos with coordinates
	cameraGPS    = 0.20 // camera photos with coordinates (offset unknown)
	videoShare   = 0.05
	ratedShare   = 0.10
	trashedShare = 0.02
)

// generator produces assets trip by trip: a trip is a place, a first day
// and one to seven days of one to three shooting sessions; a session is a
// run of photos seconds to minutes apart. That gives the clustering of
// real libraries: by day, by season, by place, and bursts within a minute.
type generator struct {
	r         *rand.Rand
	libraryID string
	userID    string
	end       time.Time // wall clock of the latest possible capture
	home      place
	cum       []float64 // cumulative place weights for trips away
	now       func() time.Time
	seq       int
	text      *rand.Rand // addText's own stream

	// The current trip and session.
	trip    place
	phone   bool
	camera  camera
	days    int
	day     time.Time // midnight, wall clock
	left    int       // photos left in the session
	session int       // sessions left today
	wall    time.Time // wall clock of the next photo
}

func newGenerator(r, text *rand.Rand, libraryID, userID string, end time.Time, now func() time.Time) *generator {
	g := &generator{r: r, text: text, libraryID: libraryID, userID: userID, now: now,
		end: time.Date(end.Year(), end.Month(), end.Day(), 0, 0, 0, 0, time.UTC)}
	g.home = places[r.IntN(len(places))]
	total := 0.0
	for _, p := range places {
		total += p.weight
		g.cum = append(g.cum, total)
	}
	return g
}

// next returns the next asset.
func (g *generator) next() *catalog.Asset {
	for g.left == 0 {
		g.nextSession()
	}
	g.left--
	wall := g.wall
	// Gaps: mostly tens of seconds, one in ten a burst a second apart.
	gap := time.Duration(g.r.ExpFloat64() * float64(45*time.Second))
	if g.r.Float64() < 0.1 {
		gap = time.Second
	}
	g.wall = g.wall.Add(gap.Round(time.Millisecond) + time.Millisecond)
	return g.asset(wall)
}

// nextSession starts the next session, the next day, or a new trip.
func (g *generator) nextSession() {
	for g.session == 0 {
		if g.days == 0 {
			g.newTrip()
		}
		g.days--
		g.day = g.day.AddDate(0, 0, 1)
		g.session = 1 + g.r.IntN(3)
	}
	g.session--
	// Sessions start in daylight, mostly in the afternoon.
	hour := math.Max(6, math.Min(23.5, 14+g.r.NormFloat64()*3.5))
	g.wall = g.day.Add(time.Duration(hour * float64(time.Hour))).Truncate(time.Second)
	g.left = 1 + int(g.r.ExpFloat64()*12)
}

// newTrip picks a place and a first day. Days are weighted towards recent
// years, summer, the end of December and weekends.
func (g *generator) newTrip() {
	if g.r.Float64() < homeShare {
		g.trip, g.days = g.home, 1
	} else {
		i := 0
		x := g.r.Float64() * g.cum[len(g.cum)-1]
		for g.cum[i] < x {
			i++
		}
		g.trip, g.days = places[i], 1+g.r.IntN(7)
	}
	g.phone = g.r.Float64() < phoneShare
	g.camera = tripCamera(g.text, g.phone)
	for {
		// More photos in later years: the density rises linearly.
		back := (1 - math.Sqrt(g.r.Float64())) * years * 365
		day := g.end.AddDate(0, 0, -int(back)-g.days)
		if g.r.Float64() < dayWeight(day)/dayWeightMax {
			g.day = day.AddDate(0, 0, -1) // nextSession advances first
			return
		}
	}
}

// dayWeight is the relative chance of photos on a day.
func dayWeight(d time.Time) float64 {
	doy := float64(d.YearDay())
	w := 1 + 1.5*math.Exp(-math.Pow((doy-205)/30, 2)) + // summer holidays
		1.5*math.Exp(-math.Pow((doy-358)/6, 2)) // Christmas and New Year
	if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
		w *= 1.6
	}
	return w
}

const dayWeightMax = (1 + 1.5 + 1.5) * 1.6

// asset builds one asset taken at wall on the current trip.
func (g *generator) asset(wall time.Time) *catalog.Asset {
	g.seq++
	r := g.r
	now := g.now().UTC()
	var capture catalog.CaptureTime
	capture.Wall = wall
	gps := cameraGPS
	if g.phone {
		off := g.trip.offsetAt(wall)
		capture.Offset, gps = &off, phoneGPS
	}
	a := &catalog.Asset{
		ID: catalog.NewID(catalog.PrefixAsset, now), LibraryID: g.libraryID, ContributorID: g.userID,
		DeviceAssetID: fmt.Sprintf("seed-%d", g.seq), DeviceID: "devseed",
		Capture: capture, FileCreatedAt: capture.Instant(), FileModifiedAt: capture.Instant(),
		Checksum: randomBytes(r, 32), ChecksumSHA1: randomBytes(r, 20),
		Metrics: map[string]any{}, CreatedAt: now, UpdatedAt: now,
	}
	if r.Float64() < videoShare {
		w, h := 1920, 1080
		a.MediaType, a.MIMEType, a.Width, a.Height = catalog.MediaVideo, "video/mp4", &w, &h
		a.OriginalFileName = fmt.Sprintf("VID_%s.MP4", wall.Format("20060102_150405"))
		a.OriginalSize = int64(5<<20 + r.IntN(200<<20))
	} else {
		w, h := 4032, 3024
		a.MediaType, a.MIMEType, a.Width, a.Height = catalog.MediaImage, "image/jpeg", &w, &h
		a.OriginalFileName = fmt.Sprintf("IMG_%04d.JPG", g.seq%10000)
		a.OriginalSize = int64(1<<20 + r.IntN(6<<20))
	}
	a.FileSizeBytes = a.OriginalSize
	original := wall.Format("2006:01:02 15:04:05")
	a.FileMeta.OriginalDatetime = &original
	if r.Float64() < gps {
		lat, lon := g.trip.near(r)
		a.FileMeta.Latitude, a.FileMeta.Longitude = &lat, &lon
	}
	if r.Float64() < ratedShare {
		a.FileMeta.Rating = ptr(float64(1 + r.IntN(5)))
	}
	if r.Float64() < trashedShare {
		// Trashed now, so the purge keeps them for the whole retention.
		a.TrashedAt = &now
	}
	g.addText(a, g.seq)
	return a
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := i; j < n && j < i+8; j++ {
			b[j] = byte(v)
			v >>= 8
		}
	}
	return b
}

func ptr[T any](v T) *T { return &v }
