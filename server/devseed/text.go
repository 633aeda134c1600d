package devseed

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
)

// Text of the generated library, for content search: varied file names,
// cameras and lenses, the reverse-geocoding layer (city, country, display
// label) of located photos, and a described share. It is drawn from its
// own random stream, so the rows' other values (times, places, sizes) are
// those of a seed without it.
const describedShare = 0.4

type camera struct{ make, model, lens string }

var (
	phones = []camera{{"Apple", "iPhone 13", "iPhone 13 back dual wide camera 5.1mm f/1.6"},
		{"Apple", "iPhone 15 Pro", "iPhone 15 Pro back triple camera 6.765mm f/1.78"},
		{"Google", "Pixel 7", ""}, {"samsung", "Galaxy S23", ""}}
	cameras = []camera{{"FUJIFILM", "X-T3", "XF16-55mmF2.8 R LM WR"}, {"SONY", "ILCE-7M3", "FE 24-70mm F2.8 GM"},
		{"Canon", "EOS R6", "RF24-105mm F4 L IS USM"}, {"NIKON CORPORATION", "NIKON Z 6_2", "NIKKOR Z 50mm f/1.8 S"}}
	subjects = []string{"beach", "temple", "mountain", "street", "market", "dinner table", "birthday cake", "dog",
		"cat", "sunset", "snowy park", "museum hall", "bridge", "harbour", "garden", "playground", "car", "train station",
		"waterfall", "lake", "forest path", "cathedral", "skyline", "café", "bicycle", "concert stage", "kitchen",
		"living room", "boat", "castle"}
	people    = []string{"", "", "a person", "two people", "a group of people", "a child", "a family"}
	times     = []string{"in the morning", "at noon", "in the afternoon", "in the evening", "at night", "at sunset"}
	qualities = []string{"sharp and well exposed", "slightly blurred", "a little dark", "bright", "well composed"}
	countries = map[string]string{"Paris": "France", "Berlin": "Germany", "London": "United Kingdom",
		"Lisbon": "Portugal", "Madrid": "Spain", "Rome": "Italy", "Athens": "Greece", "Helsinki": "Finland",
		"Reykjavik": "Iceland", "Istanbul": "Türkiye", "Moscow": "Russia", "Cairo": "Egypt", "Nairobi": "Kenya",
		"Cape Town": "South Africa", "Lagos": "Nigeria", "Marrakesh": "Morocco", "Dubai": "United Arab Emirates",
		"Mumbai": "India", "Kathmandu": "Nepal", "Bangkok": "Thailand", "Singapore": "Singapore",
		"Hong Kong": "China", "Beijing": "China", "Seoul": "South Korea", "Tokyo": "Japan", "Kyoto": "Japan",
		"Sydney": "Australia", "Perth": "Australia", "Auckland": "New Zealand", "Suva": "Fiji", "Taveuni": "Fiji",
		"Apia": "Samoa", "Nuku'alofa": "Tonga", "Chatham Islands": "New Zealand",
		"Petropavlovsk-Kamchatsky": "Russia", "Honolulu": "United States", "Anchorage": "United States",
		"Vancouver": "Canada", "San Francisco": "United States", "Los Angeles": "United States",
		"Denver": "United States", "Mexico City": "Mexico", "Chicago": "United States", "New York": "United States",
		"Toronto": "Canada", "Havana": "Cuba", "Lima": "Peru", "Bogotá": "Colombia", "Rio de Janeiro": "Brazil",
		"Buenos Aires": "Argentina", "Santiago": "Chile", "Ushuaia": "Argentina"}
)

// tripCamera picks the device of a trip.
func tripCamera(r *rand.Rand, phone bool) camera {
	if phone {
		return phones[r.IntN(len(phones))]
	}
	return cameras[r.IntN(len(cameras))]
}

// addText gives a the file name, camera, place labels and (for some) a
// description of a photo taken on the current trip.
func (g *generator) addText(a *catalog.Asset, n int) {
	r, c := g.text, g.camera
	a.FileMeta.Make, a.FileMeta.Model = ptr(c.make), ptr(c.model)
	if c.lens != "" {
		a.FileMeta.LensModel = ptr(c.lens)
	}
	if a.MediaType == catalog.MediaImage {
		switch c.make {
		case "Apple":
			a.OriginalFileName = fmt.Sprintf("IMG_%04d.HEIC", n%10000)
		case "Google":
			a.OriginalFileName = fmt.Sprintf("PXL_%s%03d.jpg", a.Capture.Wall.Format("20060102_150405"), n%1000)
		case "FUJIFILM":
			a.OriginalFileName = fmt.Sprintf("DSCF%04d.JPG", n%10000)
		case "SONY":
			a.OriginalFileName = fmt.Sprintf("DSC%05d.ARW", n%100000)
		case "Canon":
			a.OriginalFileName = fmt.Sprintf("_MG_%04d.CR3", n%10000)
		}
	}
	place := g.trip.name
	if a.FileMeta.Latitude != nil {
		country := countries[place]
		a.GeoMeta.City, a.GeoMeta.Country = ptr(place), ptr(country)
		a.GeoMeta.DisplayLabel = ptr(place + ", " + country)
	}
	if r.Float64() < describedShare {
		who := people[r.IntN(len(people))]
		what := subjects[r.IntN(len(subjects))]
		parts := []string{"A photo of"}
		if who != "" {
			parts = append(parts, who, "by a")
		} else {
			parts = append(parts, "a")
		}
		parts = append(parts, what)
		if a.FileMeta.Latitude != nil {
			parts = append(parts, "in "+place)
		}
		parts = append(parts, times[r.IntN(len(times))]+";", qualities[r.IntN(len(qualities))]+".")
		a.Description = ptr(strings.Join(parts, " "))
	}
}
