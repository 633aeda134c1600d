package exif

import (
	"math"
	"strings"
	"time"
)

// Metadata is what exiftool found in a file and its sidecar. A nil field is
// absent from both. It maps onto the asset metadata object of the API
// (make, model, orientation, the three datetimes, lens_model, f_number, …)
// plus the file facts ingest needs; place names come from reverse geocoding,
// not from here.
type Metadata struct {
	Make, Model, LensModel *string
	// Description is the camera-embedded one (ImageDescription, XMP
	// dc:description, IPTC Caption-Abstract), without placeholders such as
	// "OLYMPUS DIGITAL CAMERA".
	Description *string
	// LivePhotoCID pairs the still and the video of a Live Photo: Apple's
	// ContentIdentifier, a QuickTime key in the video and, in the still's
	// maker notes, what exiftool (since 12.19) names MediaGroupUUID.
	LivePhotoCID *string
	// ProjectionType is the GPano projection ("equirectangular").
	ProjectionType *string
	// SerialNumber is the camera body's serial number (EXIF
	// BodySerialNumber, or a maker note's), which tells two cameras of one
	// model apart.
	SerialNumber *string
	// BurstID is the camera's own id of a burst, shared by its frames and
	// absent from single shots: Apple's BurstUUID (maker notes) or Google
	// Camera's XMP BurstID.
	BurstID *string
	// ProfileDescription names the embedded ICC colour profile.
	ProfileDescription *string

	// Orientation is the EXIF orientation, 1–8.
	Orientation *int
	// Width and Height are the displayed size: swapped for orientations
	// 5–8 and for videos rotated by a quarter turn.
	Width, Height *int

	FNumber, FocalLength, ISO *float64
	ExposureTime              *float64 // seconds
	ExposureBias              *float64 // EV
	// Latitude and Longitude are signed decimal degrees; they are both
	// present or both nil (0,0 is treated as "no fix"). Altitude is metres,
	// negative below sea level, and only set with a position.
	Latitude, Longitude, Altitude *float64
	FPS                           *float64
	// Rating is -1 (rejected) to 5; 0 means unrated.
	Rating *float64

	// OriginalDatetime, DigitizedDatetime and ModifiedDatetime are
	// DateTimeOriginal (Apple's CreationDate for videos without it),
	// CreateDate and ModifyDate as RFC 3339. Each has its own recorded
	// offset, else the capture's recorded offset (the camera's clock),
	// else the GPS time zone's, else none ("2024-05-01T10:00:00").
	// QuickTime CreateDate and ModifyDate are UTC by specification: they
	// are converted to their own offset tag's, the capture's or the GPS
	// zone's clock, else rendered with "Z".
	OriginalDatetime, DigitizedDatetime, ModifiedDatetime *string
	// Capture is the capture time, nil when the file has none (the caller
	// then falls back to the file's creation time).
	Capture *Capture
	// Timezone is the IANA zone at the GPS position. It is nil without GPS
	// and when the capture offset recorded in the file contradicts the zone
	// (a camera left on home time).
	Timezone *string

	MIMEType *string
	Duration *float64 // seconds; videos and animations
}

// Capture is when a photo or video was taken, as the place's wall clock
// read. The rule: DateTimeOriginal, else Apple's CreationDate, else
// CreateDate; the offset is the one recorded for that tag (OffsetTimeOriginal
// for DateTimeOriginal, OffsetTimeDigitized for CreateDate, or inside the
// value), else derived from the GPS time zone at that wall time.
//
// A QuickTime CreateDate is UTC by specification, so it is always an
// instant: with GPS it is read on the zone's clock (wall time and offset);
// else on the device's, when the file records its offset
// (OffsetTimeDigitized); else it stays in UTC (Offset 0, "Z").
type Capture struct {
	// Wall is the wall-clock reading, in the UTC location.
	Wall time.Time
	// Offset is seconds east of UTC, nil when unknown.
	Offset *int
	// Source is the tag the time came from: "DateTimeOriginal",
	// "CreationDate" or "CreateDate".
	Source string
	// OffsetSource says where Offset came from: the offset tag
	// ("OffsetTimeOriginal", "OffsetTimeDigitized"), the datetime tag itself
	// when its value carries the offset or is UTC by specification (a
	// QuickTime "CreateDate"), "GPS-derived offset", or "" when Offset is
	// nil.
	OffsetSource string
}

// GPSDerivedOffset is Capture.OffsetSource for an offset taken from the
// time zone of the GPS position.
const GPSDerivedOffset = "GPS-derived offset"

// Instant is the capture as an absolute time; ok is false when the offset
// is unknown.
func (c Capture) Instant() (t time.Time, ok bool) {
	if c.Offset == nil {
		return time.Time{}, false
	}
	return inZone(c.Wall, *c.Offset), true
}

// parse builds Metadata from exiftool's JSON object for a file and, when
// not nil, for its XMP sidecar, whose values win.
func parse(file, sidecar map[string]any) *Metadata {
	t := tags{file: file, sidecar: sidecar}
	m := &Metadata{
		Make:               t.str("Make"),
		Model:              t.str("Model"),
		LensModel:          t.str("LensModel"),
		Description:        description(t),
		LivePhotoCID:       t.str("ContentIdentifier", "MediaGroupUUID"),
		ProjectionType:     t.str("ProjectionType"),
		SerialNumber:       t.fileStr("SerialNumber", "InternalSerialNumber", "CameraSerialNumber"),
		BurstID:            t.fileStr("BurstUUID", "BurstID"),
		ProfileDescription: t.fileStr("ProfileDescription"),
		Orientation:        orientation(t),
		FNumber:            positive(t.num("FNumber", "ApertureValue")),
		FocalLength:        positive(t.num("FocalLength")),
		ISO:                positive(t.num("ISO")),
		ExposureTime:       positive(t.num("ExposureTime", "ShutterSpeedValue")),
		ExposureBias:       t.num("ExposureCompensation"),
		FPS:                positive(t.fileNum("VideoFrameRate")),
		Rating:             rating(t),
		MIMEType:           t.fileStr("MIMEType"),
		Duration:           positive(t.fileNum("Duration")),
	}
	m.Latitude, m.Longitude, m.Altitude = position(t)
	m.Width, m.Height = dimensions(t, m.Orientation, m.MIMEType)
	resolveDates(t, m)
	return m
}

// placeholders are descriptions cameras write when the user wrote none.
var placeholders = map[string]bool{
	"olympus digital camera": true, "sony dsc": true, "digital camera": true,
	"minolta digital camera": true, "kodak digital still camera": true,
	"samsung digital camera": true, "default": true,
}

func description(t tags) *string {
	d := t.str("Description", "ImageDescription", "Caption-Abstract")
	if d == nil || placeholders[strings.ToLower(*d)] {
		return nil
	}
	return d
}

func orientation(t tags) *int {
	f := t.num("Orientation")
	if f == nil || *f < 1 || *f > 8 || *f != math.Trunc(*f) {
		return nil
	}
	o := int(*f)
	return &o
}

func rating(t tags) *float64 {
	r := t.num("Rating")
	if r == nil || *r < -1 || *r > 5 {
		return nil
	}
	return r
}

// position reads the GPS fix from the first source holding both
// coordinates. Composite GPSLatitude is signed already; the EXIF one is not,
// so the Ref tags are applied when the sign disagrees.
func position(t tags) (lat, lon, alt *float64) {
	for _, s := range t.sources(false) {
		src := s.fields
		la, ok1 := number(src["GPSLatitude"])
		lo, ok2 := number(src["GPSLongitude"])
		if !ok1 || !ok2 {
			continue
		}
		if ref, _ := text(src["GPSLatitudeRef"]); strings.HasPrefix(strings.ToUpper(ref), "S") && la > 0 {
			la = -la
		}
		if ref, _ := text(src["GPSLongitudeRef"]); strings.HasPrefix(strings.ToUpper(ref), "W") && lo > 0 {
			lo = -lo
		}
		if math.Abs(la) > 90 || math.Abs(lo) > 180 || (la == 0 && lo == 0) {
			continue
		}
		lat, lon = &la, &lo
		if a, ok := number(src["GPSAltitude"]); ok {
			if ref, _ := number(src["GPSAltitudeRef"]); ref == 1 && a > 0 {
				a = -a
			}
			alt = &a
		}
		return lat, lon, alt
	}
	return nil, nil, nil
}

// dimensions is the displayed size. exiftool's ImageWidth/ImageHeight are
// the stored pixels (ExifImageWidth/Height when the container has none).
func dimensions(t tags, orient *int, mime *string) (w, h *int) {
	wf, hf := t.fileNum("ImageWidth"), t.fileNum("ImageHeight")
	if wf == nil || hf == nil {
		wf, hf = t.fileNum("ExifImageWidth"), t.fileNum("ExifImageHeight")
	}
	// An absurd size (a crafted header) is no size: int() of 1e300 overflows.
	if wf == nil || hf == nil || *wf <= 0 || *hf <= 0 || *wf > math.MaxInt32 || *hf > math.MaxInt32 {
		return nil, nil
	}
	wi, hi := int(*wf), int(*hf)
	swap := orient != nil && *orient >= 5
	// A video's rotation is its track matrix (exiftool's Rotation). HEIF
	// stills report an irot box as Rotation too, alongside EXIF orientation,
	// so only videos use it.
	if mime != nil && strings.HasPrefix(*mime, "video/") {
		if r := t.fileNum("Rotation"); r != nil && math.Mod(math.Abs(*r), 180) == 90 {
			swap = !swap
		}
	}
	if swap {
		wi, hi = hi, wi
	}
	return &wi, &hi
}
